import { renameSync, writeFileSync } from 'node:fs';
import type { Database } from '../../db/client';
import { AppError } from '../../lib/errors';
import { ChangeRecorder } from '../../lib/changes';
import { TransferService } from './transfer.service';

export const EXPORT_USAGE = `  npm run cli -- export <team-id> [--csv] [file]
                                   a team as JSON (--csv: its tasks as CSV), to <file> or standard output
                                   (PGlite: stop the server first)`;

/**
 * `npm run cli -- export <team-id> [--csv] [file]` (issue 26): the file `POST /api/teams/import` reads, or with --csv the
 * team's tasks as CSV. Run by whoever runs the server: no caller, any team. Written under a temporary name, then renamed.
 */
export async function exportTeamCommand(args: string[], open: () => Promise<Database | null>, usage: string): Promise<number> {
  const csv = args.includes('--csv');
  const [teamId, file] = args.filter((a) => a !== '--csv');
  if (!teamId || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(teamId)) {
    console.error(usage);
    return 2;
  }
  const database = await open();
  if (!database) return 1;
  try {
    const service = new TransferService(database.db, new ChangeRecorder([])); // an export changes nothing;
    const text = csv
      ? (await service.exportAnyTasksCsv(teamId)).csv
      : `${JSON.stringify((await service.exportAny(teamId)).file, null, 2)}\n`;
    if (!file) {
      process.stdout.write(text);
      return 0;
    }
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
    console.error(`exported team ${teamId} to ${file}`);
    return 0;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) {
      console.error(`no team with id ${teamId}`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}
