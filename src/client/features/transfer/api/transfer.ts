import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CsvImportInput,
  CsvPreviewDto,
  ImportResultDto,
  TrelloImportInput,
  TrelloPreviewDto,
} from '../../../../domain/schemas/transfer';
import { api } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';
import { rootKey } from '../../../lib/query-keys';

export type ExportKind = 'json' | 'csv';

const exportPath = (teamId: string, kind: ExportKind) => `/api/teams/${teamId}/${kind === 'json' ? 'export' : 'export.csv'}`;

/** Downloads a team's export under the server's file name; answers that name. */
export function downloadExport(teamId: string, kind: ExportKind): Promise<string> {
  return downloadFile(exportPath(teamId, kind), `crewboard-export.${kind}`);
}

/** After a real import: the new project and its tasks show up everywhere. */
function useRefreshAfterImport() {
  const queryClient = useQueryClient();
  return (result: TrelloPreviewDto | CsvPreviewDto | ImportResultDto) => {
    if ('dryRun' in result) return;
    void queryClient.invalidateQueries({ queryKey: rootKey('projects') });
    void queryClient.invalidateQueries({ queryKey: rootKey('tasks') });
  };
}

export const importTrello = (teamId: string, body: TrelloImportInput) =>
  api.post<TrelloPreviewDto | ImportResultDto>(`/api/teams/${teamId}/import/trello`, body);

export const importCsv = (teamId: string, body: Partial<CsvImportInput> & { csv: string }) =>
  api.post<CsvPreviewDto | ImportResultDto>(`/api/teams/${teamId}/import/csv`, body);

export function useTrelloImport(teamId: string) {
  const refresh = useRefreshAfterImport();
  return useMutation({ mutationFn: (body: TrelloImportInput) => importTrello(teamId, body), onSuccess: refresh });
}

export function useCsvImport(teamId: string) {
  const refresh = useRefreshAfterImport();
  return useMutation({
    mutationFn: (body: Partial<CsvImportInput> & { csv: string }) => importCsv(teamId, body),
    onSuccess: refresh,
  });
}

export const isPreview = <T extends { dryRun: true }>(result: T | ImportResultDto): result is T => 'dryRun' in result;
