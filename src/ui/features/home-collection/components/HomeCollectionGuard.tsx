import type { ComponentType, ReactNode } from 'react';
import { Button, CardHeader, RequirePermission } from '@/components';
import { useScreen } from '@/lib/screens';

/** A home-collection desk screen: shown to manage_home_collection, the no-access panel to others. */
export function guardedHomeScreen(Screen: ComponentType): () => ReactNode {
  return function GuardedHomeScreen() {
    const screen = useScreen();
    return (
      <RequirePermission
        permission="manage_home_collection"
        what="home collection"
        title={screen.title}
        subtitle={screen.subtitle}
      >
        <Screen />
      </RequirePermission>
    );
  };
}

/** A card's header with one outline button on the right (Add Area, Edit Calendar...). */
export function SectionHeader({
  icon,
  title,
  description,
  action,
}: {
  icon: ReactNode;
  title: string;
  description: ReactNode;
  action: { label: string; icon: ReactNode; onClick: () => void; disabled?: boolean };
}) {
  return (
    <CardHeader
      icon={icon}
      title={title}
      description={description}
      actions={
        <Button variant="outline" size="sm" disabled={action.disabled} onClick={action.onClick}>
          {action.icon}
          {action.label}
        </Button>
      }
    />
  );
}
