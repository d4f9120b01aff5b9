// Named step lists shared by many rows: the spec's group contexts (REPO, ORG, USR, team, packages,
// actions) spelled out once. The matrix always prints them flattened.
import { REPO } from './repo.ts';
import { ORG } from './org.ts';
import { TEAM } from './team.ts';
import { USER, USER_VISIBLE } from './user.ts';
import { PACKAGE } from './package.ts';
import { PUBLIC_ONLY } from './public-only.ts';
import { ACTIONS_GATE, ISSUES_OR_PULLS_GATE, PULLS_GATE } from './gates.ts';
import { TOK } from './tok.ts';
import { SA } from './sa.ts';
import { TM } from './tm.ts';
import { RR } from './rr.ts';
import { OWN } from './own.ts';
import { PKGREAD } from './pkg.ts';

/** Spec: "REPO = repository assignment + public-only check". */
export const REPO_CTX = [REPO, PUBLIC_ONLY('repository')] as const;
/** Issues section: REPO (public-only per the issue category) + issues-or-pulls gate. */
export const ISSUE_CTX = [REPO, PUBLIC_ONLY('issue'), ISSUES_OR_PULLS_GATE] as const;
/** Pull requests section: REPO + pulls gate + RR(code). */
export const PULL_CTX = [REPO, PUBLIC_ONLY('repository'), PULLS_GATE, RR('code')] as const;
/** Repository actions: REPO + actions unit gate (404) + group guard RR(actions). */
export const REPO_ACTIONS_CTX = [REPO, PUBLIC_ONLY('repository'), ACTIONS_GATE, RR('actions')] as const;
/** Shared actions routes with P = {R}: TOK and checker OWN(actions). */
export const REPO_SHARED_ACTIONS = [REPO, PUBLIC_ONLY('repository'), ACTIONS_GATE, TOK, OWN('actions')] as const;
/** Spec: "ORG = organization assignment + public-only check". */
export const ORG_CTX = [ORG, PUBLIC_ONLY('organization')] as const;
/** Spec: "USR = user assignment + public-only check". */
export const USR = [USER, PUBLIC_ONLY('user')] as const;
/** USR plus the user-visibility gate. */
export const USR_VISIBLE = [USER, PUBLIC_ONLY('user'), USER_VISIBLE] as const;
/** Teams: "team assignment; TOK; TM; public-only". */
export const TEAM_CTX = [TEAM, TOK, TM, PUBLIC_ONLY('organization')] as const;
/** Packages: "user assignment; package assignment; PKGREAD; public-only". */
export const PKG_CTX = [USER, PACKAGE, PKGREAD, PUBLIC_ONLY('package')] as const;
/** Administration: "scope admin; TOK; SA". */
export const ADMIN = [TOK, SA] as const;
