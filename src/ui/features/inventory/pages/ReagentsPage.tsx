import { RequirePermission } from '@/components';
import { useScreen } from '@/lib/screens';
import { KindScreen } from '../components/KindScreen';

/** Reagents (spec 001): inventory items of the kind reagent, with the spec's computed statuses. */
export default function ReagentsPage() {
  const screen = useScreen();
  return (
    <RequirePermission permission="view_inventory" what="reagents" title={screen.title} subtitle={screen.subtitle}>
      <KindScreen kind="reagent" />
    </RequirePermission>
  );
}
