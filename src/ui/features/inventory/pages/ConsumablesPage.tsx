import { RequirePermission } from '@/components';
import { useScreen } from '@/lib/screens';
import { KindScreen } from '../components/KindScreen';

/** Consumables (spec 001): inventory items of the kind consumable, with the spec's computed statuses. */
export default function ConsumablesPage() {
  const screen = useScreen();
  return (
    <RequirePermission permission="view_inventory" what="consumables" title={screen.title} subtitle={screen.subtitle}>
      <KindScreen kind="consumable" />
    </RequirePermission>
  );
}
