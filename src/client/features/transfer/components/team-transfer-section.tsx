import { Download, Upload } from 'lucide-react';
import { type RefObject, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { TeamDto } from '../../../../domain/schemas/team';
import type { CsvPreviewDto, ImportResultDto, TrelloPreviewDto } from '../../../../domain/schemas/transfer';
import { Button } from '../../../components/ui/button';
import { PageSection } from '../../../components/ui/page-section';
import { toastError } from '../../../lib/errors';
import { projectTasksPath } from '../../../lib/paths';
import { downloadExport, type ExportKind, isPreview, useCsvImport, useTrelloImport } from '../api/transfer';
import { CsvImportDialog } from './csv-import-dialog';
import { TEXT } from './transfer-text';
import { TrelloImportDialog } from './trello-import-dialog';

/** What a finished import left: shown under the buttons with a link to the project. */
interface Done {
  projectId: string;
  projectName: string;
  tasks: number;
}

/**
 * Team settings → 'Export and import' (issue 26), for every member: the team as JSON or its tasks as CSV, and imports
 * from a Trello board export or a CSV of tasks, each through a mapping step and a preview (a dry run) first.
 */
export function TeamTransferSection({ team }: { team: TeamDto }) {
  const [exporting, setExporting] = useState<ExportKind | null>(null);
  const [trello, setTrello] = useState<{ board: unknown; preview: TrelloPreviewDto } | null>(null);
  const [csv, setCsv] = useState<{ text: string; fileName: string; preview: CsvPreviewDto } | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const trelloInput = useRef<HTMLInputElement>(null);
  const csvInput = useRef<HTMLInputElement>(null);
  const trelloImport = useTrelloImport(team.id);
  const csvImport = useCsvImport(team.id);

  const runExport = async (kind: ExportKind) => {
    setExporting(kind);
    try {
      const fileName = await downloadExport(team.id, kind);
      toast.success(TEXT.exported(fileName));
    } catch (error) {
      toastError(error, TEXT.exportFailed);
    } finally {
      setExporting(null);
    }
  };

  const readTrello = async (file: File) => {
    let board: unknown;
    try {
      board = JSON.parse(await file.text());
    } catch {
      toast.error(TEXT.notTrello);
      return;
    }
    try {
      const preview = await trelloImport.mutateAsync({ board });
      if (isPreview(preview)) setTrello({ board, preview });
    } catch (error) {
      toastError(error, TEXT.notTrello);
    }
  };

  const readCsv = async (file: File) => {
    const text = await file.text();
    try {
      const preview = await csvImport.mutateAsync({ csv: text });
      if (isPreview(preview)) setCsv({ text, fileName: file.name, preview });
    } catch (error) {
      toastError(error, TEXT.notCsv);
    }
  };

  const finished = (result: ImportResultDto) => {
    setTrello(null);
    setCsv(null);
    setDone({ projectId: result.projectId, projectName: result.projectName, tasks: result.counts.tasks });
    toast.success(TEXT.imported(result.counts.tasks, result.projectName));
  };

  return (
    <PageSection id="export-import" headingId="transfer-heading" title={TEXT.section} description={TEXT.sectionHint}>
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
          <h3 className="text-base font-semibold">{TEXT.exportTitle}</h3>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{TEXT.exportHint}</p>
          <div className="mt-4 flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => void runExport('json')} isLoading={exporting === 'json'}>
              {exporting !== 'json' && <Download className="h-4 w-4" aria-hidden />}
              {TEXT.exportJson}
            </Button>
            <Button variant="secondary" onClick={() => void runExport('csv')} isLoading={exporting === 'csv'}>
              {exporting !== 'csv' && <Download className="h-4 w-4" aria-hidden />}
              {TEXT.exportCsv}
            </Button>
          </div>
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
          <h3 className="text-base font-semibold">{TEXT.importTitle}</h3>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{TEXT.importHint}</p>
          <div className="mt-4 flex flex-wrap gap-2">
            <Button
              variant="secondary"
              onClick={() => trelloInput.current?.click()}
              isLoading={trelloImport.isPending && !trello}
            >
              {!(trelloImport.isPending && !trello) && <Upload className="h-4 w-4" aria-hidden />}
              {TEXT.importTrello}
            </Button>
            <Button variant="secondary" onClick={() => csvInput.current?.click()} isLoading={csvImport.isPending && !csv}>
              {!(csvImport.isPending && !csv) && <Upload className="h-4 w-4" aria-hidden />}
              {TEXT.importCsv}
            </Button>
            <HiddenFileInput
              inputRef={trelloInput}
              accept=".json,application/json"
              label={TEXT.trelloFile}
              onFile={(file) => void readTrello(file)}
            />
            <HiddenFileInput
              inputRef={csvInput}
              accept=".csv,text/csv"
              label={TEXT.csvFile}
              onFile={(file) => void readCsv(file)}
            />
          </div>
          {done && (
            <p role="status" className="mt-4 text-sm text-slate-700 dark:text-slate-200">
              {TEXT.importedInto(done.tasks)}{' '}
              <Link
                to={projectTasksPath(done.projectId)}
                className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-indigo-300"
              >
                {done.projectName}
              </Link>
            </p>
          )}
        </div>
      </div>
      {trello && (
        <TrelloImportDialog
          board={trello.board}
          initial={trello.preview}
          mutation={trelloImport}
          onClose={() => setTrello(null)}
          onDone={finished}
        />
      )}
      {csv && (
        <CsvImportDialog
          teamId={team.id}
          text={csv.text}
          fileName={csv.fileName}
          initial={csv.preview}
          mutation={csvImport}
          onClose={() => setCsv(null)}
          onDone={finished}
        />
      )}
    </PageSection>
  );
}

interface HiddenFileInputProps {
  inputRef: RefObject<HTMLInputElement | null>;
  accept: string;
  label: string;
  onFile: (file: File) => void;
}

/** The file input an import button opens: the file's way in (and a test's). Cleared, so the same file can go again. */
function HiddenFileInput({ inputRef, accept, label, onFile }: HiddenFileInputProps) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept={accept}
      aria-label={label}
      tabIndex={-1}
      className="hidden"
      onChange={(e) => {
        const file = e.currentTarget.files?.[0];
        e.currentTarget.value = '';
        if (file) onFile(file);
      }}
    />
  );
}
