import { Mail } from 'lucide-react';
import type { AdminMailDto, MailTransportKind } from '../../../../domain/schemas/admin';
import { Card } from '../../../components/ui/card';
import { DefinitionList } from '../../../components/ui/definition-list';

const TRANSPORT_LABELS: Record<MailTransportKind, string> = { smtp: 'SMTP', log: 'Log (no SMTP_URL)' };

const format = new Intl.NumberFormat('en-US');

/** The outbox at a glance: where mail goes, what waits, what went, what was given up, and the latest error. */
export function EmailCard({ mail }: { mail: AdminMailDto }) {
  const lastError = mail.lastError ? (
    <span className="font-normal text-red-700 dark:text-red-300">{mail.lastError}</span>
  ) : (
    'None'
  );
  return (
    <Card className="p-4">
      <section aria-labelledby="admin-email-heading">
        <h2 id="admin-email-heading" className="mb-3 flex items-center gap-2 text-lg font-semibold">
          <Mail className="h-5 w-5 text-brand-600 dark:text-brand-100" aria-hidden />
          Email
        </h2>
        <DefinitionList
          items={[
            ['Transport', TRANSPORT_LABELS[mail.transport]],
            ['Queued', format.format(mail.queued)],
            ['Sent (30 days)', format.format(mail.sent)],
            ['Failed (30 days)', format.format(mail.failed)],
            ['Last error', lastError],
          ]}
        />
      </section>
    </Card>
  );
}
