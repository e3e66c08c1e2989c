import { forwardRef, type ButtonHTMLAttributes, type ComponentProps } from 'react';
import { Link } from 'react-router';
import { Loader2, RefreshCw } from 'lucide-react';
import { cn } from '@/lib/cn';

export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'destructive' | 'link';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon' | 'icon-sm';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-primary-600 text-white hover:bg-primary-700 shadow-sm',
  secondary: 'bg-slate-100 text-slate-900 hover:bg-slate-200',
  outline: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 shadow-sm',
  ghost: 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  destructive: 'bg-red-600 text-white hover:bg-red-700 shadow-sm',
  link: 'text-primary-700 underline-offset-4 hover:underline px-0 h-auto',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-[13px] gap-1.5',
  md: 'h-9 px-4 gap-2',
  lg: 'h-10 px-5 text-[15px] gap-2',
  icon: 'h-9 w-9',
  'icon-sm': 'h-8 w-8',
};

/** Class names of a button, for links that should look like one. */
export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string): string {
  return cn(
    'inline-flex items-center justify-center whitespace-nowrap rounded-md font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500',
    'disabled:pointer-events-none disabled:opacity-60 [&_svg]:size-4',
    variants[variant],
    sizes[size],
    className,
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Busy: disables the button and shows a spinner with loadingText (e.g. "Saving..."). */
  loading?: boolean;
  loadingText?: string;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  {
    variant = 'primary',
    size = 'md',
    loading = false,
    loadingText,
    className,
    children,
    disabled,
    type = 'button',
    ...rest
  },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={buttonClass(variant, size, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? (
        <>
          <Loader2 className="animate-spin" aria-hidden="true" />
          {loadingText ?? children}
        </>
      ) : (
        children
      )}
    </button>
  );
});

export interface LinkButtonProps extends ComponentProps<typeof Link> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

/** A router link styled as a button (navigation is a link, not a button, for screen readers). */
export function LinkButton({ variant = 'primary', size = 'md', className, ...rest }: LinkButtonProps) {
  return <Link className={buttonClass(variant, size, className)} {...rest} />;
}

/** What RefreshButton needs of a TanStack query. */
interface Refetchable {
  refetch: () => unknown;
  isFetching: boolean;
  isPending: boolean;
}

/** Refresh: asks the server again for a query; "Refreshing..." with a spinner while it does (not on first load). */
export function RefreshButton({
  query,
  variant = 'outline',
  size,
}: {
  query: Refetchable;
  variant?: ButtonVariant;
  size?: ButtonSize;
}) {
  return (
    <Button
      variant={variant}
      size={size}
      onClick={() => void query.refetch()}
      loading={query.isFetching && !query.isPending}
      loadingText="Refreshing..."
    >
      <RefreshCw />
      Refresh
    </Button>
  );
}
