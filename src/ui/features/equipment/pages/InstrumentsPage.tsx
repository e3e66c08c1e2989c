import { EquipmentPage } from './EquipmentPage';

export default function InstrumentsPage() {
  return <EquipmentPage kind="instrument" />;
}
