import {
  SEARCH_KINDS,
  SEARCH_LIMITS,
  type SearchHit,
  type SearchKind,
  type SearchQuery,
  type SearchResultDto,
} from '../../../domain/schemas/search';
import {
  clipHighlighted,
  hasHighlight,
  markSubstrings,
  prefixTsquery,
  searchWords,
  stripHighlights,
} from '../../../domain/search-query';
import type { Db } from '../../db/client';
import * as repo from './search.repo';

const emptyGroups = (): SearchResultDto['groups'] => ({ task: [], project: [], team: [], person: [], comment: [], note: [] });

/** Typo matches need a few letters: two or three match half the words there are. */
const TYPO_MIN_LENGTH = 4;

/**
 * Global search (issue 23): what the caller may see (the statements scope it), ranked and grouped by kind, with the
 * matching words marked.
 */
export class SearchService {
  /** `db`: where the prepared search statements run (Database.preparedDb). */
  constructor(private readonly db: Db) {}

  async search(userId: string, query: SearchQuery): Promise<SearchResultDto> {
    const groups = emptyGroups();
    const words = searchWords(query.q);
    const tsquery = prefixTsquery(words);
    if (!tsquery) return { q: query.q, groups };
    // In one order whatever the query's: one prepared statement per set of kinds.
    const kinds: readonly SearchKind[] = query.kinds?.length
      ? SEARCH_KINDS.filter((k) => query.kinds!.includes(k))
      : SEARCH_KINDS;
    const limit = query.limit ?? SEARCH_LIMITS.perKindDefault;
    const text = words.join(' ');
    const typos = [...text].length >= TYPO_MIN_LENGTH && (kinds.includes('task') || kinds.includes('project'));
    const rows = await repo.search(this.db, { kinds, typos }, { userId, tsquery, text, limit });

    for (const kind of kinds) {
      groups[kind] = rows
        .filter((r) => r.kind === kind)
        .sort((a, b) => a.ord - b.ord)
        .map((r) => toHit(r, words));
    }
    return { q: query.q, groups };
  }
}

/** The highlighted text when the database marked a match in it, else null. */
const marked = (text: string | null): string | null =>
  text && hasHighlight(text) ? clipHighlighted(text, SEARCH_LIMITS.snippetMax) : null;

function toHit(row: repo.SearchRow, words: string[]): SearchHit {
  let { title, snippet } = row;
  switch (row.kind) {
    case 'task':
      // The description's matching words, else the tags' or a custom field value's (a match in the title alone shows none).
      snippet = marked(snippet) ?? marked(row.alt);
      break;
    case 'project':
    case 'note':
      snippet = marked(snippet);
      break;
    case 'comment':
      // Its words matched (the part marked may lie beyond the text ts_headline is given: then its start).
      snippet =
        snippet === null ? null : (marked(snippet) ?? clipHighlighted(stripHighlights(snippet), SEARCH_LIMITS.snippetMax));
      break;
    case 'person':
      // A part of a name or of an address (full-text matches mark whole words only).
      if (!hasHighlight(title)) title = markSubstrings(title, words);
      snippet = snippet === null ? null : markSubstrings(snippet, words);
      break;
    case 'team':
      if (!hasHighlight(title)) title = markSubstrings(title, words);
      break;
  }
  return {
    kind: row.kind,
    id: row.id,
    title,
    snippet,
    taskId: row.taskId,
    projectId: row.projectId,
    teamId: row.teamId,
    status: row.status,
    statusName: row.statusName,
    statusCategory: row.statusCategory,
    priority: row.priority,
    context: row.context,
    rank: row.rank,
  };
}
