import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CommentListDto, MentionCandidatesDto } from '../../../../domain/schemas/task-detail';
import { api } from '../../../lib/api-client';
import { taskDetailKeys } from './task-detail-keys';

export const getComments = (taskId: string, signal?: AbortSignal) =>
  api.get<CommentListDto>(`/api/tasks/${taskId}/comments`, { signal });

/** A task's comments, oldest first. */
export const commentsQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: taskDetailKeys.comments(taskId),
    queryFn: ({ signal }) => getComments(taskId, signal),
    select: (data) => data.comments,
  });

export const useComments = (taskId: string) => useQuery(commentsQueryOptions(taskId));

export const getMentionable = (taskId: string, signal?: AbortSignal) =>
  api.get<MentionCandidatesDto>(`/api/tasks/${taskId}/mentionable`, { signal });

/** The people who may be @mentioned on a task: the active members of its team. */
export const mentionableQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: taskDetailKeys.mentionable(taskId),
    queryFn: ({ signal }) => getMentionable(taskId, signal),
    select: (data) => data.people,
    staleTime: 5 * 60_000,
  });

export const useMentionable = (taskId: string) => useQuery(mentionableQueryOptions(taskId));
