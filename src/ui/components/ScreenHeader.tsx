import { useScreen } from '@/lib/screens';
import { PageHeader, type PageHeaderProps } from './PageHeader';

export type ScreenHeaderProps = Omit<PageHeaderProps, 'title'>;

/**
 * The page header of the screen being shown: the title its declaration gives (the sidebar and the
 * browser tab name it the same), its declared subtitle unless the page words its own, and the
 * page's actions.
 */
export function ScreenHeader({ subtitle, ...rest }: ScreenHeaderProps) {
  const screen = useScreen();
  return <PageHeader title={screen.title} subtitle={subtitle ?? screen.subtitle} {...rest} />;
}
