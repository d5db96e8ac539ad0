import { ComingSoonPage } from '../../components/ComingSoonPage.tsx';

export default function DataPage() {
  return <ComingSoonPage page="datatab" />;
}
