import type { ReactNode } from 'react';
import { AlertTriangle, Inbox, Loader2, RefreshCw } from 'lucide-react';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/api';
import { Button } from './Button';

export interface LoadingStateProps {
  /** The spec's loading text, e.g. "Loading bills data...". */
  text?: string;
  className?: string;
}

export function LoadingState({ text = 'Loading...', className }: LoadingStateProps) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={cn('flex items-center justify-center gap-2 py-10 text-slate-600', className)}
    >
      <Loader2 className="size-5 animate-spin text-primary-600" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}

export interface EmptyStateProps {
  title: string;
  hint?: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
  className?: string;
}

export function EmptyState({ title, hint, icon, action, className }: EmptyStateProps) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-2 px-4 py-10 text-center', className)}>
      <span className="text-slate-400 [&_svg]:size-8" aria-hidden="true">
        {icon ?? <Inbox />}
      </span>
      <p className="font-medium text-slate-800">{title}</p>
      {hint && <p className="max-w-md text-[13px] text-slate-600">{hint}</p>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}

/** A failed read the panel explains and retries (a TanStack query answers to this). */
export interface FailedQuery {
  error: unknown;
  refetch: () => unknown;
  isFetching?: boolean;
}

export type ErrorPanelProps = {
  /** The spec's panel title, e.g. "Database Connection Error", "Error Loading Bills". */
  title: string;
  retryLabel?: string;
  className?: string;
} & (
  | {
      /** The error (its message is shown) or a message. */
      error: unknown;
      onRetry?: () => void;
      retrying?: boolean;
      query?: never;
    }
  | {
      /** The query that failed: its error is shown and Retry reads it again. */
      query: FailedQuery;
      error?: never;
      onRetry?: never;
      retrying?: never;
    }
);

export function ErrorPanel(props: ErrorPanelProps) {
  const { title, retryLabel = 'Retry', className, query } = props;
  const error = query ? query.error : props.error;
  const onRetry = query ? () => void query.refetch() : props.onRetry;
  const retrying = (query ? query.isFetching : props.retrying) ?? false;
  return (
    <div role="alert" className={cn('rounded-lg border border-red-200 bg-red-50 p-4 text-red-900', className)}>
      <div className="flex items-start gap-3">
        <AlertTriangle className="mt-0.5 size-5 shrink-0 text-red-600" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h2 className="font-semibold">{title}</h2>
          <p className="mt-1 text-[13px] break-words text-red-800">{errorMessage(error)}</p>
          {onRetry && (
            <Button
              variant="outline"
              size="sm"
              className="mt-3"
              onClick={onRetry}
              loading={retrying}
              loadingText="Retrying..."
            >
              <RefreshCw />
              {retryLabel}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

/** A whole page waiting for its first data (sign-in check, lazy page). */
export function FullPageLoading({ text = 'Loading...' }: { text?: string }) {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <LoadingState text={text} />
    </div>
  );
}
