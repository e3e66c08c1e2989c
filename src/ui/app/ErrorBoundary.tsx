import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AlertOctagon } from 'lucide-react';

interface Props {
  children: ReactNode;
  /** When this changes (e.g. the path), a previous error is cleared so navigating away recovers. */
  resetKey?: string;
  /** Whole-app boundary: full-page layout with a Reload button. */
  fullPage?: boolean;
}

interface State {
  error: Error | null;
  key: string | undefined;
}

/** A render error shows "Unexpected Application Error" (spec 8) instead of a blank page. */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Unexpected Application Error', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" className={this.props.fullPage ? 'mx-auto max-w-xl p-6 pt-16' : 'max-w-2xl'}>
        <div className="rounded-lg border border-red-200 bg-white p-6 shadow-sm">
          <div className="flex items-start gap-3">
            <AlertOctagon className="mt-0.5 size-6 shrink-0 text-red-600" aria-hidden="true" />
            <div className="min-w-0">
              <h1 className="text-lg font-semibold text-slate-900">Unexpected Application Error</h1>
              <p className="mt-1 text-slate-700">Something went wrong while showing this page.</p>
              <pre className="mt-3 overflow-x-auto rounded bg-slate-100 p-3 text-xs whitespace-pre-wrap text-slate-800">
                {error.message}
              </pre>
              <div className="mt-4 flex gap-2">
                <button
                  type="button"
                  className="h-9 rounded-md bg-primary-600 px-4 font-medium text-white hover:bg-primary-700"
                  onClick={() => window.location.reload()}
                >
                  Reload
                </button>
                <a
                  href="/home"
                  className="inline-flex h-9 items-center rounded-md border border-slate-300 px-4 font-medium text-slate-800 hover:bg-slate-50"
                >
                  Go to Home
                </a>
              </div>
            </div>
          </div>
        </div>
      </div>
    );
  }
}
