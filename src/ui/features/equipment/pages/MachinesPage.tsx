import { EquipmentPage } from './EquipmentPage';
import { InterfacesSection } from '../components/InterfacesSection';

export default function MachinesPage() {
  return (
    <>
      <EquipmentPage kind="machine" />
      <InterfacesSection />
    </>
  );
}
