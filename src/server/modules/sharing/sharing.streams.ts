import type { DomainEvent } from '../../lib/events';

/** A comment line keeps proxies from closing an idle stream; each round also checks that every link still works. */
export const SHARE_HEARTBEAT_MS = 25_000;
/** Events arriving together make one `changed`. */
const COALESCE_MS = 50;
/**
 * At most one `changed` a link this often: each one makes every open page read the board again, and those reads spend
 * from the per-IP `publicRead` bucket (an office behind one address shares it).
 */
export const SHARE_CHANGED_GAP_MS = 1_000;
/** Open streams from one address (IPv6: its /64) on one instance; one more is refused with 429. */
export const SHARE_STREAMS_PER_IP = 30;
/** Open streams on one instance, whatever their address. */
export const SHARE_STREAMS_MAX = 5_000;
/** Bytes a reader may leave unread (a heartbeat is 8): beyond, its stream is ended (it reconnects when it reads again). */
const MAX_UNREAD_BYTES = 16 * 1024;

/** The project a live link opens, and its team (a team's deletion ends its links). */
export interface OpenShare {
  projectId: string;
  teamId: string;
}

/** One open stream: where to write, and how to end it. */
export interface ShareSink {
  ip: string;
  /** Writes one message; false when the reader is too far behind (the stream is then ended). */
  write(text: string): boolean;
  end(): void;
}

/** The open streams of one link (by its token's hash): one check of the link and one `changed` for all of them. */
interface Group {
  hash: string;
  share: OpenShare;
  sinks: Set<ShareSink>;
  timer: NodeJS.Timeout | null;
  /** What the next flush does: read the link again (it may have been turned off, reset, or its project moved). */
  verify: boolean;
  changed: boolean;
  lastChanged: number;
  checking: boolean;
}

/** Events after which a link may no longer open its project (turned off or reset: `share.changed` is sent as these). */
const LINK_EVENTS = new Set<DomainEvent['type']>(['project.updated', 'project.deleted']);
/** Events that change what a shared board shows (its workflow, its tasks; the project's name is a LINK_EVENT). */
const BOARD_EVENTS = new Set<DomainEvent['type']>([
  'status.created',
  'status.updated',
  'status.deleted',
  'task.created',
  'task.updated',
  'task.deleted',
  'task.detail_changed',
]);

/**
 * This instance's event streams of shared boards (issue 40), fed by every domain event of every instance (the
 * LISTEN/NOTIFY channel). Streams are grouped by link: an event makes one database read per link at most (only when
 * it may have turned the link off), never one per open page; a heartbeat round checks every link once. Bounded: streams
 * per address and in all, and unread bytes per stream.
 */
export class ShareStreams {
  private readonly groups = new Map<string, Group>();
  private readonly byProject = new Map<string, Set<Group>>();
  private readonly perIp = new Map<string, number>();
  private size = 0;
  /** Bumped by every event that may turn a link off: a stream opened across one checks its link again. */
  private linkEvents = 0;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(private readonly lookup: (hash: string) => Promise<OpenShare | null>) {}

  /** Taken before a stream's link is looked up; `add` compares it to see whether an event came in between. */
  get generation(): number {
    return this.linkEvents;
  }

  /** Whether one more stream from `ip` may open (per-address and overall bounds). */
  admits(ip: string): boolean {
    return this.size < SHARE_STREAMS_MAX && (this.perIp.get(ip) ?? 0) < SHARE_STREAMS_PER_IP;
  }

  /** Adds a stream of the link `hash` (looked up as `share` since `generation`); returns its removal. */
  add(hash: string, share: OpenShare, sink: ShareSink, generation: number): () => void {
    let group = this.groups.get(hash);
    if (!group) {
      group = { hash, share, sinks: new Set(), timer: null, verify: false, changed: false, lastChanged: 0, checking: false };
      this.groups.set(hash, group);
      const siblings = this.byProject.get(share.projectId) ?? new Set();
      siblings.add(group);
      this.byProject.set(share.projectId, siblings);
    }
    group.sinks.add(sink);
    this.size++;
    this.perIp.set(sink.ip, (this.perIp.get(sink.ip) ?? 0) + 1);
    this.heartbeat ??= setInterval(() => this.beat(), SHARE_HEARTBEAT_MS).unref();
    if (generation !== this.linkEvents) this.schedule(group, true, false);
    const g = group;
    return () => this.remove(g, sink);
  }

  /** A domain event from any instance. */
  onEvent(event: DomainEvent): void {
    if (event.type === 'team.deleted') {
      this.linkEvents++;
      for (const group of this.groups.values()) if (group.share.teamId === event.teamId) this.schedule(group, true, true);
      return;
    }
    const link = LINK_EVENTS.has(event.type);
    if (link) this.linkEvents++;
    if (!link && !BOARD_EVENTS.has(event.type)) return;
    if (!('projectId' in event)) return;
    for (const group of this.byProject.get(event.projectId) ?? []) this.schedule(group, link, true);
  }

  /** The channel reconnected: events may have been missed; every link is checked and every page reads again. */
  onReconnect(): void {
    this.linkEvents++;
    for (const group of this.groups.values()) this.schedule(group, true, true);
  }

  closeAll(): void {
    for (const group of [...this.groups.values()]) for (const sink of [...group.sinks]) sink.end();
  }

  get openStreams(): number {
    return this.size;
  }

  private remove(group: Group, sink: ShareSink): void {
    if (!group.sinks.delete(sink)) return;
    this.size--;
    const left = (this.perIp.get(sink.ip) ?? 1) - 1;
    if (left > 0) this.perIp.set(sink.ip, left);
    else this.perIp.delete(sink.ip);
    if (group.sinks.size === 0) {
      if (group.timer) clearTimeout(group.timer);
      group.timer = null;
      if (this.groups.get(group.hash) === group) this.groups.delete(group.hash);
      const siblings = this.byProject.get(group.share.projectId);
      siblings?.delete(group);
      if (siblings?.size === 0) this.byProject.delete(group.share.projectId);
    }
    if (this.size === 0 && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }

  private schedule(group: Group, verify: boolean, changed: boolean): void {
    group.verify ||= verify;
    group.changed ||= changed;
    if (group.timer || group.checking) return;
    const wait = Math.max(COALESCE_MS, group.lastChanged + SHARE_CHANGED_GAP_MS - Date.now());
    group.timer = setTimeout(() => {
      group.timer = null;
      void this.flush(group);
    }, wait);
  }

  private async flush(group: Group): Promise<void> {
    if (group.sinks.size === 0) return;
    const { verify, changed } = group;
    group.verify = false;
    group.changed = false;
    if (verify) {
      group.checking = true;
      try {
        const still = await this.lookup(group.hash);
        if (!still || still.projectId !== group.share.projectId) {
          for (const sink of [...group.sinks]) sink.end();
          return;
        }
        group.share.teamId = still.teamId;
      } catch {
        // The database did not answer: the next event or heartbeat checks again.
      } finally {
        group.checking = false;
      }
    }
    if (changed) {
      group.lastChanged = Date.now();
      this.send(group, 'event: changed\ndata: changed\n\n');
    }
    // Asked for again while the link was being checked.
    if (group.verify || group.changed) this.schedule(group, false, false);
  }

  /** Every stream gets a comment line; every link is checked (one read each). */
  private beat(): void {
    for (const group of [...this.groups.values()]) {
      this.send(group, ': ping\n\n');
      this.schedule(group, true, false);
    }
  }

  private send(group: Group, text: string): void {
    for (const sink of [...group.sinks]) if (!sink.write(text)) sink.end();
  }
}

/** Whether a stream's reader is keeping up (what it left unread stays under the bound). */
export const keepsUp = (unread: number): boolean => unread <= MAX_UNREAD_BYTES;
