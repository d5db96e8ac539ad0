import { ComingSoonPage } from '../../components/ComingSoonPage.tsx';

export default function SettingsPage() {
  return <ComingSoonPage page="settings" />;
}
