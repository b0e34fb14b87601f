import { type SQL, sql } from 'drizzle-orm';
import type { TaskPriority } from '../../../domain/constants';
import type { StatusCategory } from '../../../domain/workflow';
import { HIGHLIGHT_END, HIGHLIGHT_START, type SearchKind } from '../../../domain/schemas/search';
import type { DbOrTx } from '../../db/client';
import { teamMembers } from '../../db/schema';
import { isActiveRow, seesPerson, visibleProjectIds, visibleTeamIds, wholeTeamIds } from '../../db/visibility';
import { ssoLockValues } from '../../db/sso-lock';

/*
 * Global search (issue 23, decision 0019). The vectors (`search_vector`, migration 0007) are not in the Drizzle
 * schema, so these statements name them in SQL. Every branch is scoped to the caller's active memberships inside the
 * statement (`my_teams`), never afterwards.
 */

/** One hit as every branch returns it (the union's columns). */
export interface SearchRow {
  kind: SearchKind;
  id: string;
  /** With highlight markers from ts_headline (tasks, projects, teams, people), or plain (a comment's task title). */
  title: string;
  /** A description's, comment's or (tasks) tags' headline, or a person's email, or null. */
  snippet: string | null;
  /**
   * A task's tags' headline when they match, else a matching text or url custom field value's (tasks only), tried when
   * its description has no match.
   */
  alt: string | null;
  taskId: string | null;
  projectId: string | null;
  teamId: string | null;
  status: string | null;
  /** The name of a task's status in its project's workflow (tasks only). */
  statusName: string | null;
  statusCategory: StatusCategory | null;
  priority: TaskPriority | null;
  context: string | null;
  rank: number;
  /** Position within its kind, best first. */
  ord: number;
}

/** What a search statement is built for (its text); one prepared statement per shape. */
export interface SearchShape {
  kinds: readonly SearchKind[];
  /** Also look for typos in task titles and project names (when the text is long enough to have any). */
  typos: boolean;
}

/** The values a search statement runs with. */
export interface SearchValues {
  userId: string;
  /** The to_tsquery source (domain/search-query.ts prefixTsquery). */
  tsquery: string;
  /** The words joined by spaces: trigram similarity and substring matches. */
  text: string;
  /** Hits per kind. */
  limit: number;
}

/** Placeholders of the prepared statements, one per SearchValues field. */
const P = {
  userId: sql.placeholder('userId'),
  tsquery: sql.placeholder('tsquery'),
  text: sql.placeholder('text'),
  limit: sql.placeholder('limit'),
};

/** Weights of D, C, B, A: a task's title (A) counts five times its description (C), its tags (B) in between. */
const WEIGHTS = sql`'{0.1, 0.2, 0.4, 1.0}'::float4[]`;

/**
 * How many matches of one kind are ranked at most. A query a letter or two long matches most tasks ('d': 66,000 of
 * the bench's 100,000, which took 77 ms to rank). Beyond this many, the ranked ones are the first found (in table
 * order): a person who typed 'd' refines by typing on.
 */
export const SEARCH_CANDIDATES = 300;
/** The rank of a task found by a custom field's value alone (issue 38): as a match in the least weighted text. */
const FIELD_RANK = 0.1;
/** Of those, the best by full-text rank are ranked again with the title's trigram similarity (cheap on few rows). */
const RERANK = 50;

/**
 * The trigram word similarity (0..1) from which a title or a name counts as a typo of the text: 'kanbna' is 0.57
 * of 'Kanban board', 'desgin' 0.43 of 'Design'; below 0.4 most hits are noise.
 */
export const TYPO_SIMILARITY = 0.4;

const CONFIG = sql`'crewboard_search'`;
const MARKERS = HIGHLIGHT_START + HIGHLIGHT_END;
/** Stored text without our marker characters, so that it cannot fake a highlight. */
const clean = (expr: SQL) => sql`translate(${expr}, ${MARKERS}, '')`;
/** The whole (short) text with every match marked. */
const WHOLE = `StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_END}, HighlightAll=true`;
/** The best part or two of a long text around its matches. */
const PARTS = `StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_END}, MaxWords=18, MinWords=6, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;
/** A long text is marked from its first characters only (ts_headline's cost grows with the text). */
const SNIPPET_SOURCE_MAX = 2000;

/**
 * `<@user-id>` mention tokens (domain/schemas/task-detail.ts MENTION_TOKEN); anything else, in pieces. (A token cut
 * in half by SNIPPET_SOURCE_MAX is dropped first.)
 */
const MENTION_SPLIT = '(<@[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}>)|([^<]+|<)';

/** `text` contains the search text, case-insensitively (no pattern: `%` and `_` are characters like any other). */
const containsSearchText = (text: SQL) => sql`strpos(lower(${text}), lower(${P.text})) > 0`;

function branches(typos: boolean) {
  /*
   * The query, parsed once per statement: as an uncorrelated subquery it is computed before the scans (an "InitPlan")
   * and serves the GIN index like a constant; written as a call, a generic plan would parse it again on every row.
   */
  const tsq = sql`(select to_tsquery(${CONFIG}, ${P.tsquery}))`;
  const headline = (expr: SQL, options: string) => sql`ts_headline(${CONFIG}, ${clean(expr)}, ${tsq}, ${options})`;
  const { limit, text } = P;
  /**
   * A typo search runs only when the full-text search of its kind found fewer hits than asked for (a trigram scan
   * of a common text costs more than the full-text one), after the threshold is set. Both conditions hold no column:
   * PostgreSQL checks them once, before it starts the scan under them ("One-Time Filter").
   */
  const typoGate = (matches: SQL) =>
    sql`(select count(*) from ${matches}) < ${limit} and (select done from search_settings) is not null`;
  /** The full-text hits, then typo hits that are not among them, best first. */
  const mergeTypos = (fts: string, typo: string) => sql`
        (select * from ${sql.raw(fts)})
        union all
        (select * from ${sql.raw(typo)} where id not in (select id from ${sql.raw(fts)})
          order by rank desc, updated_at desc, id limit ${limit})
        order by rank desc, updated_at desc, id
        limit ${limit}`;
  // The projects the caller sees (decision 0031: a guest, only those given to them).
  const visibleProjects = sql`(select project_id from my_projects)`;
  /**
   * The rows a text index finds, found once and then checked for visibility. Without the fence (`offset 0`) a generic
   * plan, which cannot tell how many rows a search will match, may scan the index once per visible project instead.
   */
  const matchesFirst = (select: SQL) => sql`(${select} offset 0)`;

  /** The text and url custom fields of the caller's teams (issue 38): their values are searched too. */
  const myTextFields = sql`(select f.id from custom_fields f where f.team_id in (select team_id from my_teams) and f.type in ('text', 'url'))`;
  /** Values are read (no index serves a substring) only when the text found fewer tasks than asked for. */
  const fieldGate = sql`(select count(*) from task_text_top) < ${limit}`;
  /** A matching custom field value, as the snippet: its words marked (the first such value of the task). */
  const fieldSnippet = sql`(select ${headline(sql`left(v.v_text, ${SNIPPET_SOURCE_MAX})`, PARTS)} from task_field_values v
          where v.task_id = t.id and v.v_text is not null and ${containsSearchText(sql`v.v_text`)} order by v.field_id limit 1)`;

  const task = {
    ctes: sql`
      task_match as (
        select t.id, t.title, t.updated_at, ts_rank_cd(${WEIGHTS}, t.search_vector, ${tsq}) as fts
        from ${matchesFirst(sql`select id, title, updated_at, project_id, search_vector from tasks where search_vector @@ ${tsq}`)} t
        where t.project_id in ${visibleProjects}
        limit ${SEARCH_CANDIDATES}
      ),
      task_fts as (
        select m.id, m.updated_at, m.fts + word_similarity(${text}, m.title) as rank
        from (select * from task_match order by fts desc, updated_at desc, id limit ${RERANK}) m
        order by rank desc, m.updated_at desc, m.id
        limit ${limit}
      ),
      ${
        typos
          ? sql`task_typo as (
        select t.id, t.updated_at, word_similarity(${text}, t.title) as rank
        from ${matchesFirst(sql`select id, title, updated_at, project_id from tasks where title %> ${text}`)} t
        where ${typoGate(sql`task_match`)} and t.project_id in ${visibleProjects}
        limit ${SEARCH_CANDIDATES}
      ),
      task_text_top as (${mergeTypos('task_fts', 'task_typo')})`
          : sql`task_text_top as (select * from task_fts)`
      },
      task_field as (
        select t.id, t.updated_at, ${FIELD_RANK}::real as rank
        from ${matchesFirst(sql`select distinct v.task_id from task_field_values v where v.field_id in ${myTextFields}
          and ${containsSearchText(sql`v.v_text`)}`)} m
          join tasks t on t.id = m.task_id
        where ${fieldGate} and t.project_id in ${visibleProjects} and t.id not in (select id from task_text_top)
        order by t.updated_at desc, t.id
        limit ${limit}
      ),
      task_top as (
        select * from task_text_top
        union all
        select * from task_field
        order by rank desc, updated_at desc, id
        limit ${limit}
      )`,
    select: sql`
      select 'task' as kind, t.id,
        ${headline(sql`t.title`, WHOLE)} as title,
        case when t.description is not null then ${headline(sql`left(t.description, ${SNIPPET_SOURCE_MAX})`, PARTS)} end as snippet,
        coalesce(
          case when cardinality(t.tags) > 0 and to_tsvector(${CONFIG}, array_to_string(t.tags, ', ')) @@ ${tsq}
            then ${headline(sql`array_to_string(t.tags, ', ')`, WHOLE)} end,
          ${fieldSnippet}) as alt,
        t.id as "taskId", t.project_id as "projectId", p.team_id as "teamId", t.status, st.name as "statusName",
        t.status_category as "statusCategory", t.priority,
        ${clean(sql`p.name`)} as context, x.rank,
        row_number() over (order by x.rank desc, x.updated_at desc, x.id) as ord
      from task_top x join tasks t on t.id = x.id join projects p on p.id = t.project_id
        left join project_statuses st on st.project_id = t.project_id and st.key = t.status`,
  };

  const project = {
    ctes: sql`
      project_match as (
        select p.id, p.name, p.updated_at, ts_rank_cd(${WEIGHTS}, p.search_vector, ${tsq}) as fts
        from projects p
        where p.search_vector @@ ${tsq} and p.id in ${visibleProjects}
        limit ${SEARCH_CANDIDATES}
      ),
      project_fts as (
        select m.id, m.updated_at, m.fts + word_similarity(${text}, m.name) as rank
        from project_match m
        order by rank desc, m.updated_at desc, m.id
        limit ${limit}
      ),
      ${
        typos
          ? sql`project_typo as (
        select p.id, p.updated_at, word_similarity(${text}, p.name) as rank
        from projects p
        where ${typoGate(sql`project_match`)} and p.name %> ${text} and p.id in ${visibleProjects}
        limit ${SEARCH_CANDIDATES}
      ),
      project_top as (${mergeTypos('project_fts', 'project_typo')})`
          : sql`project_top as (select * from project_fts)`
      }`,
    select: sql`
      select 'project' as kind, p.id,
        ${headline(sql`p.name`, WHOLE)} as title,
        case when p.description is not null then ${headline(sql`left(p.description, ${SNIPPET_SOURCE_MAX})`, PARTS)} end as snippet,
        null as alt, null::uuid as "taskId", p.id as "projectId", p.team_id as "teamId", null as status, null as "statusName", null as "statusCategory", null as priority,
        ${clean(sql`tm.name`)} as context, x.rank,
        row_number() over (order by x.rank desc, x.updated_at desc, x.id) as ord
      from project_top x join projects p on p.id = x.id join teams tm on tm.id = p.team_id`,
  };

  // A caller's teams are few: their names are matched without an index (full text, substring or typo).
  const team = {
    ctes: sql`
      team_top as (
        select m.id, m.updated_at, m.rank from (
          select teams.id, teams.updated_at,
            ts_rank_cd(${WEIGHTS}, to_tsvector(${CONFIG}, teams.name), ${tsq}) + word_similarity(${text}, teams.name) as rank
          from teams
          where teams.id in (select team_id from my_teams)
            and (to_tsvector(${CONFIG}, teams.name) @@ ${tsq} or ${containsSearchText(sql`teams.name`)}
              or word_similarity(${text}, teams.name) >= ${TYPO_SIMILARITY})
        ) m
        order by m.rank desc, m.updated_at desc, m.id
        limit ${limit}
      )`,
    select: sql`
      select 'team' as kind, tm.id,
        ${headline(sql`tm.name`, WHOLE)} as title,
        null as snippet, null as alt, null::uuid as "taskId", null::uuid as "projectId", tm.id as "teamId",
        null as status, null as "statusName", null as "statusCategory", null as priority, null as context, x.rank,
        row_number() over (order by x.rank desc, x.updated_at desc, x.id) as ord
      from team_top x join teams tm on tm.id = x.id`,
  };

  // People who share an active team with the caller: the members of the caller's teams.
  const person = {
    ctes: sql`
      person_top as (
        select users.id, users.full_name,
          (to_tsvector(${CONFIG}, users.full_name) @@ ${tsq})::int + word_similarity(${text}, users.full_name)
            + 0.5 * (${containsSearchText(sql`users.email`)})::int as rank
        from users
        where users.id in (
            select ${teamMembers.userId} from ${teamMembers}
            where ${teamMembers.teamId} in (select team_id from my_teams) and ${isActiveRow()}
              and ${seesPerson(teamMembers.teamId, teamMembers.userId, P.userId, teamMembers.role)}
          )
          and (to_tsvector(${CONFIG}, users.full_name) @@ ${tsq} or ${containsSearchText(sql`users.full_name`)} or ${containsSearchText(sql`users.email`)}
            or word_similarity(${text}, users.full_name) >= ${TYPO_SIMILARITY})
        order by rank desc, lower(users.full_name), users.id
        limit ${limit}
      )`,
    select: sql`
      select 'person' as kind, u.id,
        ${headline(sql`u.full_name`, WHOLE)} as title,
        u.email as snippet, null as alt, null::uuid as "taskId", null::uuid as "projectId", null::uuid as "teamId",
        null as status, null as "statusName", null as "statusCategory", null as priority,
        (select string_agg(${clean(sql`tm.name`)}, ', ' order by lower(tm.name), tm.id)
          from ${teamMembers} join teams tm on tm.id = ${teamMembers.teamId}
          where ${teamMembers.userId} = u.id and ${isActiveRow()} and ${teamMembers.teamId} in (select team_id from my_teams)) as context,
        x.rank,
        row_number() over (order by x.rank desc, lower(x.full_name), x.id) as ord
      from person_top x join users u on u.id = x.id`,
  };

  // Comments of tasks the caller sees. The snippet shows each mention as '@' and the person's current name.
  const comment = {
    ctes: sql`
      comment_top as (
        select m.id, m.created_at, m.rank from (
          select c.id, c.created_at, ts_rank_cd(c.search_vector, ${tsq}) as rank
          from ${matchesFirst(sql`select id, task_id, created_at, search_vector from task_comments where search_vector @@ ${tsq}`)} c
            join tasks t on t.id = c.task_id
          where t.project_id in ${visibleProjects}
          limit ${SEARCH_CANDIDATES}
        ) m
        order by m.rank desc, m.created_at desc, m.id
        limit ${limit}
      )`,
    select: sql`
      select 'comment' as kind, c.id,
        ${clean(sql`t.title`)} as title,
        ${headline(
          sql`(select string_agg(coalesce(piece.part[2], '@' || coalesce(u.full_name, 'someone')), '' order by piece.n)
            from regexp_matches(regexp_replace(left(c.body, ${SNIPPET_SOURCE_MAX}), '<@[0-9a-fA-F-]*$', ''), ${MENTION_SPLIT}, 'g')
              with ordinality as piece(part, n)
            left join users u on u.id = substr(piece.part[1], 3, 36)::uuid)`,
          PARTS,
        )} as snippet,
        null as alt, c.task_id as "taskId", t.project_id as "projectId", p.team_id as "teamId",
        null as status, null as "statusName", null as "statusCategory", null as priority, ${clean(sql`p.name`)} as context, x.rank,
        row_number() over (order by x.rank desc, x.created_at desc, x.id) as ord
      from comment_top x join task_comments c on c.id = x.id join tasks t on t.id = c.task_id
        join projects p on p.id = t.project_id`,
  };

  // Notes of the caller's teams (issue 25): title (A) and plain text (C), kept by the notes' compaction.
  const note = {
    ctes: sql`
      note_top as (
        select m.id, m.updated_at, m.rank from (
          select n.id, n.updated_at, ts_rank_cd(${WEIGHTS}, n.search_vector, ${tsq}) + word_similarity(${text}, n.title) as rank
          from ${matchesFirst(sql`select id, title, updated_at, team_id, project_id, search_vector from notes where search_vector @@ ${tsq}`)} n
          where (n.team_id in (select team_id from my_whole_teams) or n.project_id in ${visibleProjects})
          limit ${SEARCH_CANDIDATES}
        ) m
        order by m.rank desc, m.updated_at desc, m.id
        limit ${limit}
      )`,
    select: sql`
      select 'note' as kind, n.id,
        ${headline(sql`n.title`, WHOLE)} as title,
        case when n.plain_text <> '' then ${headline(sql`left(n.plain_text, ${SNIPPET_SOURCE_MAX})`, PARTS)} end as snippet,
        null as alt, null::uuid as "taskId", n.project_id as "projectId", n.team_id as "teamId",
        null as status, null as "statusName", null as "statusCategory", null as priority, ${clean(sql`coalesce(p.name, tm.name)`)} as context, x.rank,
        row_number() over (order by x.rank desc, x.updated_at desc, x.id) as ord
      from note_top x join notes n on n.id = x.id join teams tm on tm.id = n.team_id
        left join projects p on p.id = n.project_id`,
  };

  return { task, project, team, person, comment, note } satisfies Record<SearchKind, { ctes: SQL; select: SQL }>;
}

/** The columns of a hit, read from the union. */
const hitColumns = {
  kind: sql<SearchKind>`kind`,
  id: sql<string>`id`,
  title: sql<string>`title`,
  snippet: sql<string | null>`snippet`,
  alt: sql<string | null>`alt`,
  taskId: sql<string | null>`"taskId"`,
  projectId: sql<string | null>`"projectId"`,
  teamId: sql<string | null>`"teamId"`,
  status: sql<string | null>`status`,
  statusName: sql<string | null>`"statusName"`,
  statusCategory: sql<StatusCategory | null>`"statusCategory"`,
  priority: sql<TaskPriority | null>`priority`,
  context: sql<string | null>`context`,
  rank: sql<number>`rank`,
  ord: sql<number | string>`ord`,
};

/**
 * One statement for every asked-for kind (one round trip). Typo matches use the trigram operator `%>`, the one the
 * GIN trigram indexes serve, whose threshold is a setting: `search_settings` sets it for this statement's
 * transaction only, before a typo scan starts (see typoGate).
 */
function buildStatement(db: DbOrTx, shape: SearchShape) {
  const all = branches(shape.typos);
  const parts = shape.kinds.map((k) => all[k]);
  const settings = shape.typos
    ? sql`search_settings as materialized (
        select set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_SIMILARITY)}, true) as done
      ),`
    : sql``;
  const statement = sql`
    with my_teams as ${visibleTeamIds(P.userId)},
    my_projects(project_id) as ${visibleProjectIds(P.userId)},
    my_whole_teams(team_id) as ${wholeTeamIds(P.userId)},
    ${settings}
    ${sql.join(
      parts.map((b) => b.ctes),
      sql`,`,
    )}
    ${sql.join(
      parts.map((b) => sql`(${b.select})`),
      sql` union all `,
    )}`;
  return db
    .select(hitColumns)
    .from(sql`(${statement}) as hits`)
    .prepare(`search_${shape.kinds.join('_')}${shape.typos ? '_typos' : ''}`);
}

type Statement = ReturnType<typeof buildStatement>;
/**
 * Prepared statements, per database handle and shape (at most 62). On PostgreSQL they run on `preparedDb`, whose
 * connections plan each once (Database.preparedDb): planning the whole union costs about as much as running it.
 */
const statements = new WeakMap<DbOrTx, Map<string, Statement>>();

/** Every asked-for kind's best hits, scoped to the caller's teams, each kind best first (`ord`). */
export async function search(db: DbOrTx, shape: SearchShape, values: SearchValues): Promise<SearchRow[]> {
  if (shape.kinds.length === 0) return [];
  let forDb = statements.get(db);
  if (!forDb) {
    forDb = new Map();
    statements.set(db, forDb);
  }
  const key = `${shape.kinds.join(',')}|${shape.typos}`;
  let statement = forDb.get(key);
  if (!statement) {
    statement = buildStatement(db, shape);
    forDb.set(key, statement);
  }
  const rows = await statement.execute({ ...values, ...ssoLockValues(values.userId) });
  return rows.map((r) => ({ ...r, rank: Number(r.rank), ord: Number(r.ord) }));
}
