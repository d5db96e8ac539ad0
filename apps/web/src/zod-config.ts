// Zod compiles object parsers with `new Function` when it may; the app's CSP has no 'unsafe-eval',
// so even zod's probe for it would be a reported violation. The interpreted parser is fast enough here.
import { z } from 'zod';

z.config({ jitless: true });
