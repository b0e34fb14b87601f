// The notes module's public surface.
export { NotesService } from './notes.service';
export { noteMentionMails } from './notes.compaction';
