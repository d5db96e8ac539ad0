// The Mantine sheets the Settings (Data integration) screen adds to the app's
// (apps/web/src/mantine-styles.ts), loaded with this screen's chunk only; Popover before the Combobox
// made of it (Settings → Shop's currency Select).
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/List.css';
