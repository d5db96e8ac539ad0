import { ComingSoonPage } from '../../components/ComingSoonPage.tsx';

export default function DashboardPage() {
  return <ComingSoonPage page="home" />;
}
