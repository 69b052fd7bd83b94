/**
 * What an MCP tool is (docs/agents.md: Coding agents): its input as a zod shape, and its data for
 * that input, read with the control client. A CLI command declares the tool it also is with
 * `tool()` (cli/command.ts); the server registers the commands' tools, then its own (tools.ts).
 */
import type { z } from 'zod';
import type { ControlClient } from '../client/control.js';

export type ToolShape = Record<string, z.ZodType>;

/** The MCP tool a command also is: its input as JSON, and its data for that input. */
export interface ToolDeclaration<S extends ToolShape = ToolShape> {
  /** The command's words joined by `_` (`clock advance` → `clock_advance`, `api-faults set` → `api_faults_set`) unless given. */
  name?: string;
  description: string;
  input: S;
  /** The tool's answer: what the command prints with --json. */
  data(client: ControlClient, input: z.infer<z.ZodObject<S>>): Promise<unknown>;
}

/** A tool as the server registers it. */
export type Tool = ToolDeclaration & { name: string };

/** Declares a command's tool, its input typed by its zod shape. */
export const tool = <S extends ToolShape>(declaration: ToolDeclaration<S>): ToolDeclaration => declaration as unknown as ToolDeclaration;
