import { KindScreen } from '../components/KindScreen';

/** Reagents (spec 001): inventory items of the kind reagent, with the spec's computed statuses. */
export default function ReagentsPage() {
  return <KindScreen kind="reagent" />;
}
