// Ceiling A: a bare Koa 3 + @koa/router process answering a static repository object of
// the size cairn answers. What a Node HTTP API on this stack can do at most on this machine.
import { ceilingArgs, serveCeiling } from './ceiling-app.ts';

serveCeiling(ceilingArgs());
