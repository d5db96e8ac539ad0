// Loaded before every web test file (vitest.config.ts). Testing Library's findBy/waitFor give up
// after 1 s by default; the suite runs beside the server's tests, two files at a time on two cores,
// and under that load a Shop panel save answered by a loopback server took longer: the test failed
// and its late save landed in the next test's list. Five seconds only delays a real failure.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5_000 });
