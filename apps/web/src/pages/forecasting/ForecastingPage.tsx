import { ComingSoonPage } from '../../components/ComingSoonPage.tsx';

export default function ForecastingPage() {
  return <ComingSoonPage page="forecasting" />;
}
