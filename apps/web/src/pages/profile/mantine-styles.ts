// The Mantine sheets the Profile screen adds to the app's (apps/web/src/mantine-styles.ts), loaded
// with this screen's chunk only: the Dates choice of "Your preferences" is a radio group.
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Radio.css';
