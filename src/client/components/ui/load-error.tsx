import { Button } from './button';

export interface LoadErrorProps {
  text: string;
  onRetry: () => void;
  isRetrying: boolean;
}

/** A page's data could not be loaded: what failed, and 'Retry'. */
export function LoadError({ text, onRetry, isRetrying }: LoadErrorProps) {
  return (
    <div
      role="alert"
      className="mb-4 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
    >
      {text}
      <Button variant="secondary" size="sm" onClick={onRetry} isLoading={isRetrying}>
        Retry
      </Button>
    </div>
  );
}
