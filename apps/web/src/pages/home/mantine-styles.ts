// The Mantine sheets the Dashboard adds to the app's (apps/web/src/mantine-styles.ts), loaded with
// this screen's chunk only.
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/SegmentedControl.css';
