import type { CreatedAt, UpdatedAt } from '../types.js';

export type GoalHorizon = 'short' | 'mid' | 'long';

export interface GoalTable {
  id: string;
  workspaceId: string;
  spaceId: string | null;
  title: string;
  description: string | null;
  horizon: GoalHorizon;
  keywords: string[];
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface GoalTaskTable {
  workspaceId: string;
  goalId: string;
  taskId: string;
  createdAt: CreatedAt;
}

export interface GoalsTables {
  goals: GoalTable;
  goalTasks: GoalTaskTable;
}
