import { useParams } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { errorText, isError } from '../../../lib/errors';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { getRequestStatus } from '../api/public-api';
import { PublicCard } from './public-card';
import { usePublicLoad } from './use-public-load';

const CATEGORY_TONE: Record<string, string> = {
  unstarted: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100',
  started: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100',
  completed: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-100',
  canceled: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
};

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * /requests/:token (issue 40): a submitted request's status for its requester, from the link in the confirmation
 * mail, without signing in: its title, the project, the status's name, when it was received and last updated.
 */
export function RequestStatusPage() {
  const { token = '' } = useParams();
  const request = usePublicLoad(token, (signal) => getRequestStatus(token, signal));
  useDocumentTitle(request.state === 'done' ? `Request: ${request.data.title}` : 'Your request');
  if (request.state === 'loading') return <Spinner className="min-h-screen" label="Loading your request…" />;
  if (request.state === 'failed') {
    const missing = isError(request.error, 'not_found') || isError(request.error, 'validation_failed');
    return (
      <PublicCard title="Your request">
        <p role="status">
          {missing
            ? 'This request link does not exist, or the request was deleted.'
            : errorText(request.error, 'Could not load your request. Please try again later.')}
        </p>
      </PublicCard>
    );
  }
  const r = request.data;
  return (
    <PublicCard title={r.title} subtitle={r.projectName}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
        <dt className="font-medium text-slate-700 dark:text-slate-200">Status</dt>
        <dd>
          <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${CATEGORY_TONE[r.statusCategory] ?? ''}`}>
            {r.statusName}
          </span>
        </dd>
        <dt className="font-medium text-slate-700 dark:text-slate-200">Received</dt>
        <dd>{when(r.createdAt)}</dd>
        <dt className="font-medium text-slate-700 dark:text-slate-200">Last updated</dt>
        <dd>{when(r.updatedAt)}</dd>
      </dl>
    </PublicCard>
  );
}
