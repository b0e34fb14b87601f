import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { canCommentOnTask, canContribute, canEditTask, type MemberRole } from '../../domain/permissions';
import type { TeamRole } from '../../domain/constants';
import { useAuthStore } from '../stores/auth-store';
import { projectsQueryOptions } from './queries/projects';
import { teamsQueryOptions } from './queries/teams';

/** What a task needs to be judged by (a TaskDto, or any task-like row). */
type TaskLike = { projectId: string; assigneeId: string | null };

export interface WorkRights {
  /** My role in a project's team (undefined until my projects have loaded, or for a project I do not see). */
  roleOf: (projectId: string) => MemberRole;
  /** 'New Task': in a given project, or (none given) anywhere (`offersWork`). */
  canCreateTask: (projectId?: string) => boolean;
  /** Add work to a team ('New Project', 'New Note'): to a given team, or (none given) anywhere (`offersWork`). */
  canAddToTeam: (teamId?: string) => boolean;
  /** Change a task (drag it, edit its fields, checklist, files, time, sub-tasks, dependencies). */
  canEditTask: (task: TaskLike) => boolean;
  /** Write a comment on a task. */
  canComment: (task: TaskLike) => boolean;
}

/**
 * Whether to offer work that no project or team scopes — 'New Task', 'New Project', 'New Note' — to someone with these
 * teams: not when every team is one they view or are a guest of (issue 41), whose form would offer nothing; a user of no
 * team yet, or an owner whose team has no project yet, keeps it as before roles existed (undefined: not loaded yet).
 */
export const offersWork = (teams: readonly { myRole: TeamRole }[] | undefined): boolean =>
  !teams || teams.length === 0 || teams.some((t) => canContribute(t.myRole));

/**
 * Whether to offer a 'New Task' that no project or team scopes (the sidebar's Quick Add, the command palette's 'New
 * Task', the calendar's '+' unfiltered): not to someone whose every team is one they view or are a guest of (issue 41),
 * whose form would offer no project. A user of no team yet, or an owner whose team has no project yet, keeps it as
 * before; until my teams have loaded it shows. Reads only my teams (not my projects): the sidebar asks on every page.
 */
export function useOffersNewTask(): boolean {
  return offersWork(useQuery(teamsQueryOptions()).data);
}

/**
 * What the signed-in user may do with the team's work (issue 41: a viewer changes nothing, a guest only the tasks
 * assigned to them), from the domain's predicates and my role in each project's team (`myRole` of my projects and
 * teams). The UI only hides; the server refuses whatever it shows. Until my projects and teams have loaded, everything
 * is allowed, as before roles existed: a member's board does not wait for them, and the server has the last word.
 */
export function useWorkRights(): WorkRights {
  const userId = useAuthStore((s) => s.user?.id ?? '');
  const projects = useQuery(projectsQueryOptions()).data;
  const teams = useQuery(teamsQueryOptions()).data;
  return useMemo(() => {
    const byProject = new Map(projects?.map((p) => [p.id, p]));
    const byTeam = new Map(teams?.map((t) => [t.id, t]));
    const roleOf = (projectId: string): MemberRole => byProject.get(projectId)?.myRole;
    return {
      roleOf,
      canCreateTask: (projectId) => (projectId ? !projects || canContribute(roleOf(projectId)) : offersWork(teams)),
      canAddToTeam: (teamId) => (teamId ? !teams || canContribute(byTeam.get(teamId)?.myRole) : offersWork(teams)),
      canEditTask: (task) => !projects || canEditTask(roleOf(task.projectId), userId, task),
      canComment: (task) => {
        if (!projects) return true;
        const project = byProject.get(task.projectId);
        const team = project && byTeam.get(project.teamId);
        return canCommentOnTask(project?.myRole, userId, task, { viewersMayComment: team?.viewersMayComment ?? false });
      },
    };
  }, [projects, teams, userId]);
}
