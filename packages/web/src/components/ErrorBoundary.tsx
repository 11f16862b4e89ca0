// Catches render errors below it and shows the default error view; a new `resetKey` (the path) clears it.
import { Component, type ReactNode } from 'react';
import { DefaultErrorView } from './DefaultErrorView';

interface Props {
  children: ReactNode;
  resetKey?: string;
}

interface State {
  error: unknown;
  resetKey: string | undefined;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override render() {
    return this.state.error ? <DefaultErrorView error={this.state.error} /> : this.props.children;
  }
}
