/**
 * The control plane's app (/_sandbox/*) and the checks its routes are declared with
 * (control-route.ts): the admin token (middleware/admin.ts), the body read once within a limit
 * (middleware/body.ts) and the programme a request names (middleware/programme.ts). A route takes
 * those its declaration asks for, in that order, as its own middleware, so what it meets does not
 * depend on where it is added; the mirrors of /v1 route functions take all three.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Programmes } from '../programmes/index.js';
import { declareProgramme } from './control-openapi.js';
import type { Api, AppEnv } from './env.js';
import { requireAdminToken } from './middleware/admin.js';
import { readBody } from './middleware/body.js';
import { selectProgramme } from './middleware/programme.js';
import { routeGroup } from './route-group.js';

type Middleware = MiddlewareHandler<AppEnv>;

/** What a control route's declaration chooses among: the checks every route of the control plane is made with. */
export interface ControlPlaneOptions {
  /** --admin-token, when the sandbox was started with one. */
  adminToken: string | undefined;
  programmes: Programmes;
  /** The largest JSON body a control route takes (a route that reads a file says its own). */
  maxBodyBytes: number;
}

/** The control plane's routes, and the checks they are declared with. */
export class ControlPlane extends OpenAPIHono<AppEnv> {
  private readonly admin: Middleware;
  private readonly json: Middleware;
  private readonly programme: Middleware;

  constructor({ adminToken, programmes, maxBodyBytes }: ControlPlaneOptions) {
    super();
    this.admin = requireAdminToken(adminToken);
    this.json = readBody(maxBodyBytes);
    this.programme = selectProgramme(programmes);
    // A path no route answers meets what the routes do before its 404 (the app's): without the
    // admin token, nothing says which paths exist. Its place among the routes changes nothing.
    const unmatched = [this.admin, this.json, this.programme];
    this.use('*', (c, next) => {
      if (matchedRoutes(c).some((r) => r.method !== 'ALL')) return next();
      const run = async (i: number): Promise<void> => {
        if (i < unmatched.length) await unmatched[i]!(c, () => run(i + 1));
        else await next();
      };
      return run(0);
    });
  }

  /**
   * What a route meets before its handler, as declared: the admin token, its body (JSON within the
   * control plane's limit, or a file of at most `fileBytes`, as its bytes or as JSON), its programme.
   */
  checks({ admin = true, fileBytes, programme = true }: { admin?: boolean; fileBytes?: number; programme?: boolean }): Middleware[] {
    const body = fileBytes === undefined ? this.json : readBody(fileBytes, { file: true });
    return [...(admin ? [this.admin] : []), body, ...(programme ? [this.programme] : [])];
  }

  /**
   * Mounts the routes a /v1 route function declares (`declare`) on the control plane: each meets
   * the admin token, a JSON body within the control plane's limit and the programme the request
   * names, and none of /v1's token, signature and idempotency checks.
   */
  mirror(declare: (api: Api) => void): void {
    const mirror = routeGroup(this.checks({}));
    declare(mirror);
    // They act on the programme the request names, as the control routes do: the document says so.
    declareProgramme(mirror.openAPIRegistry);
    this.route('/', mirror);
  }
}
