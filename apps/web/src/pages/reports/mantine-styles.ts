// The Mantine sheets the Reports screen adds to the app's (apps/web/src/mantine-styles.ts), loaded
// with this screen's chunk only.
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/LoadingOverlay.css';
