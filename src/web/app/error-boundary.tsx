import { Component, type ErrorInfo, type ReactNode } from "react";
import { TEXT } from "../../contract/texts/site";

interface State {
  failed: boolean;
}

/** Shown when a page fails to load (a chunk missing after a deploy, an unexpected error). */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold">{TEXT.states.error}</h1>
        <div className="mt-6 flex justify-center gap-4">
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            {TEXT.states.retry}
          </button>
          <a href="/" className="btn">
            {TEXT.backHome}
          </a>
        </div>
      </div>
    );
  }
}
