import { ServicePage } from './ServicePage';

export default function MaintenancePage() {
  return <ServicePage kind="maintenance" />;
}
