import { ComingSoonPage } from '../../components/ComingSoonPage.tsx';

export default function ReportsPage() {
  return <ComingSoonPage page="reports" />;
}
