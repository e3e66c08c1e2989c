import { EquipmentPage } from './EquipmentPage';

export default function MachinesPage() {
  return <EquipmentPage kind="machine" />;
}
