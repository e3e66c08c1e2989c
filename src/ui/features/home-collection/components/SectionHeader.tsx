import type { ReactNode } from 'react';
import { Button, CardHeader } from '@/components';

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
