import { EquipmentPage } from './EquipmentPage';
import { InterfacesSection } from '../components/InterfacesSection';
import { ReceiversSection } from '../components/ReceiversSection';

export default function MachinesPage() {
  return (
    <>
      <EquipmentPage kind="machine" />
      <InterfacesSection />
      <ReceiversSection />
    </>
  );
}
