import { KindScreen } from '../components/KindScreen';

/** Consumables (spec 001): inventory items of the kind consumable, with the spec's computed statuses. */
export default function ConsumablesPage() {
  return <KindScreen kind="consumable" />;
}
