import { ServicePage } from './ServicePage';

export default function CalibrationPage() {
  return <ServicePage kind="calibration" />;
}
