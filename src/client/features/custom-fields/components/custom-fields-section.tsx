import { useQuery } from '@tanstack/react-query';
import { Info, Plus } from 'lucide-react';
import { useRef, useState } from 'react';
import { canManageMembers } from '../../../../domain/permissions';
import type { CustomFieldDto } from '../../../../domain/schemas/custom-field';
import type { TeamDto } from '../../../../domain/schemas/team';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { PageSection } from '../../../components/ui/page-section';
import { Spinner } from '../../../components/ui/spinner';
import { useTeamFields } from '../../../lib/queries/custom-fields';
import { projectsQueryOptions } from '../../../lib/queries/projects';
import { FIELD_MSG } from '../field-edit';
import { DeleteFieldDialog } from './delete-field-dialog';
import { FieldFormDialog } from './field-form-dialog';
import { FieldRow } from './field-row';

type Open = { kind: 'add' } | { kind: 'edit'; field: CustomFieldDto } | { kind: 'delete'; field: CustomFieldDto } | null;

/**
 * Team settings → 'Custom fields' (issue 38): every member reads the team's fields; owners and admins add them ('Add
 * field'), switch 'Show on card', edit, archive and delete them (the server checks each request again).
 */
export function CustomFieldsSection({ team }: { team: TeamDto }) {
  const canManage = canManageMembers(team.myRole);
  const fields = useTeamFields(team.id);
  const projects = useQuery(projectsQueryOptions({ teamId: team.id }));
  const projectNames = new Map((projects.data ?? []).map((p) => [p.id, p.name]));
  const [open, setOpen] = useState<Open>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const list = [...(fields.data ?? [])].sort((a, b) => a.position - b.position);

  return (
    <PageSection
      id="custom-fields"
      headingId="custom-fields-heading"
      title={FIELD_MSG.section}
      description={FIELD_MSG.sectionDescription}
      action={
        canManage ? (
          <Button ref={addRef} onClick={() => setOpen({ kind: 'add' })}>
            <Plus className="h-4 w-4" aria-hidden />
            {FIELD_MSG.add}
          </Button>
        ) : undefined
      }
    >
      {!canManage && (
        <p className="flex items-start gap-2 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-200">
          <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          {FIELD_MSG.readOnly}
        </p>
      )}
      {fields.isPending ? (
        <Spinner />
      ) : fields.isError ? (
        <LoadError text={FIELD_MSG.loadFailed} onRetry={() => void fields.refetch()} isRetrying={fields.isFetching} />
      ) : list.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-5 text-sm dark:border-slate-600">
          <p className="font-medium text-slate-800 dark:text-slate-100">{FIELD_MSG.empty}</p>
          <p className="mt-1 text-slate-600 dark:text-slate-300">{canManage ? FIELD_MSG.emptyManager : FIELD_MSG.emptyMember}</p>
        </div>
      ) : (
        // Focus comes here when the focused row is gone (deleted).
        <ul ref={listRef} aria-label={FIELD_MSG.section} tabIndex={-1} className="space-y-2 rounded-lg">
          {list.map((field) => (
            <FieldRow
              key={field.id}
              teamId={team.id}
              field={field}
              projectNames={projectNames}
              canManage={canManage}
              onEdit={() => setOpen({ kind: 'edit', field })}
              onDelete={() => setOpen({ kind: 'delete', field })}
            />
          ))}
        </ul>
      )}
      {open?.kind === 'add' && <FieldFormDialog teamId={team.id} onClose={() => setOpen(null)} />}
      {open?.kind === 'edit' && (
        <FieldFormDialog
          teamId={team.id}
          field={list.find((f) => f.id === open.field.id) ?? open.field}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'delete' && (
        <DeleteFieldDialog
          teamId={team.id}
          field={open.field}
          onDeleted={() =>
            // After the dialog has closed (it gives focus back to its opener only while that is on the page).
            requestAnimationFrame(() => (listRef.current ?? addRef.current)?.focus())
          }
          onClose={() => setOpen(null)}
        />
      )}
    </PageSection>
  );
}
