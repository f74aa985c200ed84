import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { RouteError } from './route-error.tsx';

interface BoundaryProps {
  children: ReactNode;
  /** A new value clears a caught error: the visitor has moved on. */
  resetKey: string;
}

interface BoundaryState {
  error: unknown;
  resetKey: string;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override render() {
    return this.state.error === null ? this.props.children : <RouteError error={this.state.error} />;
  }
}

/**
 * Shows a route's failure (most often a lazy chunk that did not arrive) in place of that route,
 * inside its layout, until the visitor navigates elsewhere.
 */
export function RouteBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary resetKey={pathname}>{children}</ErrorBoundary>;
}
