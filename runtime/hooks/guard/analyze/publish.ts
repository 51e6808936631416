// The catalog of publishing and releasing: package registries, release tools, the forges'
// releases and merges, history rewrites and deploys. The model is told it may never do
// these during a run; the `publish` lock enforces it (never lifted during a run). One
// entry per program family, each judged on the program's name and arguments after the walk
// has unwrapped wrappers (`npx`, `pnpm dlx`, `env`, `sudo`…); each with the examples the
// test (test/guard/publish.test.ts) judges: `ship` must be refused, `keep` allowed.
// Read-only and dry-run forms stay allowed.

/** One entry: which programs, when they ship, and what to do instead. */
export interface ShipEntry {
  id: string;
  /** Program names (lower-case, without directory or `.exe`/`.cmd`/`.bat`). */
  programs: string[];
  /** What this invocation ships (a few words for the reason), or null when it does not. */
  ships(args: readonly string[]): string | null;
  /** `publish` unless stated: `commit` for tools that only commit and tag locally. */
  lock?: 'publish' | 'commit';
  /** What to run instead (the reason's advice). */
  instead?: string;
  /** Commands the test requires refused… */
  ship: string[];
  /** …and allowed. */
  keep: string[];
}

const USER_PUBLISHES = 'nothing: the user publishes after the run';
const USER_RELEASES = 'nothing: the user releases after the run';
const USER_MERGES = 'nothing: the user merges after reviewing';
const USER_DEPLOYS = 'nothing: the user deploys after the run';

/** The arguments that are not options, skipping the values of `valued` options (`--` ends options). */
export function positionals(args: readonly string[], valued: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') return [...out, ...args.slice(i + 1)];
    if (a.startsWith('-') && a.length > 1) {
      if (valued.includes(a)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** One of `flags` is given (`--flag`, `--flag=true`, or a short flag inside a cluster when `clusters`). */
function has(args: readonly string[], ...flags: string[]): boolean {
  return args.some((a) => flags.some((f) => a === f || (f.startsWith('--') && a.startsWith(`${f}=`) && !/=(false|0|no)$/i.test(a))));
}

/** A dry run: the flag given and not set to false. */
const dry = (args: readonly string[], ...flags: string[]) => has(args, ...(flags.length > 0 ? flags : ['--dry-run']));
const helpOnly = (args: readonly string[]) => has(args, '--help', '-h', '--version', '-V', '-v');

const NPM_VALUED = ['--prefix', '-C', '--workspace', '-w', '--userconfig', '--globalconfig', '--cache', '--registry', '--loglevel', '--tag', '--otp', '--access', '--filter', '-F', '--dir', '--cwd'];

/** `npm`/`pnpm`/`yarn`/`bun` publish and the registry's other writes. */
function npmShips(args: readonly string[]): string | null {
  const [verb, sub] = positionals(args, NPM_VALUED);
  if (verb === undefined) return null;
  if (verb === 'publish' || verb === 'unpublish') return dry(args) ? null : `${verb}es to the registry`;
  if (verb === 'deprecate' || verb === 'undeprecate') return dry(args) ? null : 'changes a published package on the registry';
  if ((verb === 'dist-tag' || verb === 'dist-tags') && sub !== undefined && ['add', 'rm', 'set'].includes(sub)) return 'moves a dist-tag on the registry';
  if ((verb === 'owner' || verb === 'author') && sub !== undefined && ['add', 'rm', 'remove'].includes(sub)) return "changes a package's owners on the registry";
  if (verb === 'access' && sub !== undefined && ['public', 'restricted', 'grant', 'revoke', 'set', '2fa-required', '2fa-not-required'].includes(sub)) return "changes a package's access on the registry";
  // npm 11: `npm stage publish` stages a release on the registry.
  if (verb === 'stage' && sub === 'publish') return dry(args) ? null : 'stages a release on the registry';
  // yarn berry: `yarn npm publish`, `yarn npm tag add`.
  if (verb === 'npm' && sub === 'publish') return dry(args) ? null : 'publishes to the registry';
  if (verb === 'npm' && sub === 'tag' && ['add', 'remove'].includes(positionals(args, NPM_VALUED)[2] ?? '')) return 'moves a dist-tag on the registry';
  return null;
}

const subcommand = (args: readonly string[], valued: readonly string[] = []) => positionals(args, valued)[0];

/** A simple `tool verb` entry: ships when the verb is one of `verbs` and no dry-run flag is given. */
function verbs(list: string[], what: string, dryFlags: string[] = ['--dry-run'], valued: string[] = []): (args: readonly string[]) => string | null {
  return (args) => {
    const verb = subcommand(args, valued);
    if (verb === undefined || !list.includes(verb)) return null;
    return dryFlags.length > 0 && dry(args, ...dryFlags) ? null : what;
  };
}

/** `gh api`: a write (a method other than GET, or fields) to releases, merges, refs or contents; a GraphQL mutation that merges, moves refs or commits. */
function ghApi(args: readonly string[]): string | null {
  const valued = ['-X', '--method', '-f', '-F', '--field', '--raw-field', '-H', '--header', '--input', '-q', '--jq', '-t', '--template', '--hostname', '--cache', '-p', '--preview'];
  const endpoint = positionals(args, valued)[1] ?? '';
  let method = '';
  let fields = false;
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const value = a.includes('=') && a.startsWith('--') ? a.slice(a.indexOf('=') + 1) : (args[i + 1] ?? '');
    if (a === '-X' || a === '--method' || a.startsWith('--method=')) method = value.toUpperCase();
    else if (a.startsWith('-X') && a.length > 2) method = a.slice(2).toUpperCase();
    if (['-f', '-F', '--field', '--raw-field', '--input'].includes(a.split('=')[0] as string)) {
      fields = true;
      values.push(value);
    }
  }
  if (method === '') method = fields ? 'POST' : 'GET';
  if (endpoint === 'graphql') {
    return /\b(mergePullRequest|enablePullRequestAutoMerge|createRef|updateRefs?|deleteRef|createCommitOnBranch|createRelease|updateRelease|deleteRelease)\b/.test(values.join(' ')) ? 'merges, moves refs or releases through the GraphQL API' : null;
  }
  if (method === 'GET' || method === 'HEAD') return null;
  if (/\/releases\b|\/merges?\b|\/git\/(refs|tags)\b|\/contents\/|\/pulls\/[^/]+\/merge\b|\/dispatches\b/.test(endpoint)) return `${method} ${endpoint} writes releases, merges, refs or commits on the forge`;
  return null;
}

/** The options of `docker run`/`exec` and `compose run`/`exec` that take a value. */
const CONTAINER_VALUED = new Set(['-v', '--volume', '-e', '--env', '--env-file', '-w', '--workdir', '--name', '-p', '--publish', '--network', '--net', '--entrypoint', '-u', '--user', '--platform', '--mount', '-l', '--label', '--cpus', '-m', '--memory', '--pull', '--restart', '--add-host', '--device', '--cap-add', '--cap-drop', '--security-opt', '--tmpfs', '--ulimit', '--hostname', '-h', '--runtime', '--gpus', '--ipc', '--pid', '--shm-size', '--log-driver', '--log-opt', '--dns', '--volumes-from', '--group-add', '--link', '--expose', '--health-cmd', '--stop-signal', '--cidfile', '-f', '--file', '-p', '--project-name', '--profile', '--project-directory', '--env-from-file', '--detach-keys', '--index']);

/** The command a container runs (`docker run [opts] IMAGE CMD…`, `docker compose run [opts] SERVICE CMD…`, `exec` alike); empty when none. */
function containerCommand(args: readonly string[]): string[] {
  let i = 0;
  const skipOptions = () => {
    for (; i < args.length && (args[i] as string).startsWith('-'); i++) if (CONTAINER_VALUED.has(args[i] as string)) i++;
  };
  skipOptions();
  if (args[i] === 'compose' || args[i] === 'container') {
    i++;
    skipOptions();
  }
  if (args[i] !== 'run' && args[i] !== 'exec') return [];
  i++;
  skipOptions();
  i++; // the image, container or service
  return args.slice(i);
}

/** vercel's subcommands that do not deploy. */
const VERCEL_COMMANDS = new Set(['dev', 'build', 'env', 'login', 'logout', 'link', 'pull', 'ls', 'list', 'inspect', 'logs', 'whoami', 'domains', 'dns', 'certs', 'secrets', 'teams', 'switch', 'projects', 'project', 'init', 'help', 'bisect', 'git', 'integration', 'telemetry', 'target', 'remove', 'rm']);

/** Maven goals that deploy or release. */
const MAVEN_SHIPS = /^(deploy|release:(prepare|perform|stage)|deploy:deploy(-file)?|gpg:sign-and-deploy-file|site-deploy|site:deploy|nexus-staging:(deploy|release|close)|jib:build)$/;

/** Gradle tasks that publish (`publishToMavenLocal` stays on this machine). */
function gradleShips(args: readonly string[]): string | null {
  const tasks = positionals(args, ['-p', '--project-dir', '-b', '--build-file', '-c', '--settings-file', '-x', '--exclude-task', '-D', '-P', '--init-script', '-I', '-g', '--gradle-user-home']);
  const shipping = tasks.find((t) => {
    const name = t.split(':').pop() ?? '';
    if (/MavenLocal$/i.test(name)) return false;
    return /^publish/i.test(name) || /^(uploadArchives|closeAndReleaseRepository|closeAndReleaseStagingRepositories|releaseRepository|jib|release)$/.test(name);
  });
  return shipping ? `runs ${shipping}, which publishes` : null;
}

/** The catalog. */
export const SHIP_CATALOG: ShipEntry[] = [
  {
    id: 'npm',
    programs: ['npm'],
    ships: npmShips,
    instead: USER_PUBLISHES,
    ship: ['npm stage publish --provenance', 'npm publish', 'npm publish --access public', 'npm -w packages/a publish', 'npm unpublish pkg@1.0.0', 'npm deprecate pkg@"<1" "old"', 'npm dist-tag add pkg@1.2.0 latest', 'npm owner add bob pkg', 'npm publish --dry-run=false', 'npx npm publish', 'npm access public pkg'],
    keep: ['npm publish --dry-run', 'npm pack', 'npm dist-tag ls pkg', 'npm owner ls pkg', 'npm view pkg version', 'npm unpublish --dry-run pkg@1.0.0', 'npm run build', 'npm access list packages'],
  },
  {
    id: 'pnpm',
    programs: ['pnpm'],
    ships: npmShips,
    instead: USER_PUBLISHES,
    ship: ['pnpm publish', 'pnpm -r publish --access public', 'pnpm publish --no-git-checks', 'pnpm --filter ./packages/a publish'],
    keep: ['pnpm publish --dry-run', 'pnpm pack', 'pnpm -r build'],
  },
  {
    id: 'yarn',
    programs: ['yarn'],
    ships: npmShips,
    instead: USER_PUBLISHES,
    ship: ['yarn publish', 'yarn publish --new-version 1.2.3', 'yarn npm publish', 'yarn npm publish --access public', 'yarn npm tag add pkg@1.0.0 latest'],
    keep: ['yarn pack', 'yarn npm info pkg', 'yarn npm tag list pkg', 'yarn build'],
  },
  {
    id: 'bun',
    programs: ['bun'],
    ships: npmShips,
    instead: USER_PUBLISHES,
    ship: ['bun publish', 'bun publish --access public'],
    keep: ['bun publish --dry-run', 'bun pm pack', 'bun test'],
  },
  {
    id: 'cargo',
    programs: ['cargo'],
    ships: (args) => {
      const verb = positionals(args.filter((a) => !a.startsWith('+')), ['-Z', '-C', '--config', '--color', '-p', '--package', '--manifest-path', '--registry', '--index', '--token', '--features', '-F', '--target', '-j', '--jobs'])[0];
      if (verb === 'publish') return dry(args, '--dry-run', '-n') ? null : 'publishes the crate to the registry';
      if (verb === 'yank') return 'yanks a published version';
      if (verb === 'owner') return has(args, '--add', '-a', '--remove', '-r') ? "changes a crate's owners" : null;
      if (verb === 'release') return helpOnly(args) ? null : 'releases the crate (cargo-release)';
      if ((verb === 'workspaces' || verb === 'ws') && positionals(args)[1] === 'publish') return dry(args) ? null : 'publishes the workspace crates';
      return null;
    },
    instead: USER_PUBLISHES,
    ship: ['cargo publish', 'cargo publish -p mycrate --allow-dirty', 'cargo yank --version 1.0.0', 'cargo owner --add github:org:team', 'cargo release patch --execute', 'cargo +stable publish', 'cargo ws publish'],
    keep: ['cargo publish --dry-run', 'cargo publish -n', 'cargo package', 'cargo build --release', 'cargo owner --list', 'cargo test'],
  },
  {
    id: 'cargo-release',
    programs: ['cargo-release'],
    ships: (args) => (helpOnly(args) ? null : 'releases the crate'),
    instead: USER_RELEASES,
    ship: ['cargo-release release minor'],
    keep: ['cargo-release --help'],
  },
  {
    id: 'twine',
    programs: ['twine'],
    ships: verbs(['upload', 'register'], 'uploads distributions to the package index', []),
    instead: USER_PUBLISHES,
    ship: ['twine upload dist/*', 'twine upload --repository testpypi dist/*', 'python -m twine upload dist/*', 'python3 -m twine upload --skip-existing dist/*'],
    keep: ['twine check dist/*', 'python -m twine check dist/*'],
  },
  {
    id: 'poetry',
    programs: ['poetry'],
    ships: verbs(['publish'], 'publishes the package', ['--dry-run']),
    instead: USER_PUBLISHES,
    ship: ['poetry publish', 'poetry publish --build', 'poetry publish -r testpypi'],
    keep: ['poetry publish --dry-run', 'poetry build', 'poetry run pytest'],
  },
  {
    id: 'python-publishers',
    programs: ['flit', 'hatch', 'pdm', 'maturin', 'uv'],
    ships: verbs(['publish', 'upload'], 'publishes the package', ['--dry-run']),
    instead: USER_PUBLISHES,
    ship: ['flit publish', 'hatch publish', 'pdm publish', 'maturin publish', 'uv publish', 'uv publish --token x'],
    keep: ['flit build', 'hatch build', 'hatch run test', 'uv publish --dry-run', 'uv run pytest', 'maturin build --release'],
  },
  {
    id: 'gem',
    programs: ['gem'],
    ships: (args) => {
      const verb = subcommand(args);
      if (verb === 'push' || verb === 'yank') return `gem ${verb} changes the registry`;
      if (verb === 'owner' && has(args, '--add', '-a', '--remove', '-r')) return "changes a gem's owners";
      return null;
    },
    instead: USER_PUBLISHES,
    ship: ['gem push pkg-1.0.0.gem', 'gem yank pkg -v 1.0.0', 'gem owner pkg --add bob@example.com'],
    keep: ['gem build pkg.gemspec', 'gem install bundler', 'gem owner pkg'],
  },
  {
    id: 'containers',
    programs: ['docker', 'podman', 'buildah', 'nerdctl'],
    ships: (args) => {
      const [verb, sub] = positionals(args, ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level', '-f', '--file', '-t', '--tag', '--platform', '--target', '--build-arg', '-o', '--output', '--cache-from', '--cache-to', '--builder', '-p', '--project-name']);
      if (verb === 'push') return 'pushes an image to a registry';
      if ((verb === 'image' || verb === 'manifest' || verb === 'compose') && sub === 'push') return 'pushes to a registry';
      if (verb === 'buildx' && (sub === 'build' || sub === 'bake') && (has(args, '--push') || args.some((a) => /^(-o|--output)=?.*type=registry/.test(a) || /type=(registry|image,.*push=true)/.test(a)))) return 'builds and pushes an image to a registry';
      // `docker run IMAGE CMD…`, `docker compose run SERVICE CMD…`: a command that publishes, run in a container.
      const inner = containerCommand(args);
      if (inner.length > 0) {
        const [program = '', ...rest] = inner;
        const found = BY_PROGRAM.get(catalogName(program))?.map((e) => e.ships(rest)).find((w) => w !== null);
        if (found) return `runs ${program} in a container: ${found}`;
        if (/^(deploy|publish|release)$/i.test(program)) return `runs ${program} in a container`;
      }
      return null;
    },
    instead: 'nothing: the user pushes images after the run (build with `docker build` or `--load`)',
    ship: ['docker run --rm -e NPM_TOKEN node:20 npm publish', 'docker compose run --rm cli deploy prod --yes', 'docker push ghcr.io/org/app:1.0', 'docker image push app', 'docker buildx build --push -t org/app .', 'podman push app', 'docker compose push', 'docker buildx bake --push'],
    keep: ['docker run --rm -v $PWD:/w -w /w node:20 npm test', 'docker compose run --rm app pytest', 'docker build -t app .', 'docker compose up -d', 'docker buildx build --load -t app .', 'docker pull node:20', 'docker run --rm app'],
  },
  {
    id: 'vscode-marketplaces',
    programs: ['vsce', 'ovsx'],
    ships: verbs(['publish', 'unpublish'], 'publishes the extension to a marketplace', []),
    instead: USER_PUBLISHES,
    ship: ['vsce publish', 'vsce publish minor', 'ovsx publish -p token', 'npx @vscode/vsce publish'],
    keep: ['vsce package', 'vsce ls', 'ovsx --help'],
  },
  {
    id: 'nuget',
    programs: ['dotnet', 'nuget'],
    ships: (args) => {
      const p = positionals(args, ['-k', '--api-key', '-s', '--source', '-c', '--configuration']);
      const [a, b] = p[0] === 'nuget' ? [p[1], p[2]] : [p[0], p[1]];
      void b;
      if (a === 'push' || a === 'delete') return `nuget ${a} changes the package feed`;
      return null;
    },
    instead: USER_PUBLISHES,
    ship: ['dotnet nuget push bin/Release/pkg.1.0.0.nupkg -k key -s https://api.nuget.org/v3/index.json', 'nuget push pkg.nupkg', 'dotnet nuget delete pkg 1.0.0'],
    keep: ['dotnet build', 'dotnet pack -c Release', 'dotnet test', 'dotnet nuget list source'],
  },
  {
    id: 'maven',
    programs: ['mvn', 'mvnw'],
    ships: (args) => {
      const goal = positionals(args, ['-P', '-pl', '--projects', '-f', '--file', '-s', '--settings', '-gs', '-T', '--threads', '-rf', '--resume-from', '-D', '-l', '--log-file', '-t', '--toolchains']).find((g) => MAVEN_SHIPS.test(g));
      return goal ? `runs ${goal}, which deploys or releases` : null;
    },
    instead: USER_PUBLISHES,
    ship: ['mvn deploy', 'mvn -B clean deploy -DskipTests', './mvnw release:prepare release:perform', 'mvn -P release deploy'],
    keep: ['mvn test', 'mvn -B verify', 'mvn package -DskipTests', 'mvn install', './mvnw -q spotless:check'],
  },
  {
    id: 'gradle',
    programs: ['gradle', 'gradlew'],
    ships: gradleShips,
    instead: USER_PUBLISHES,
    ship: ['./gradlew publish', 'gradle publishToSonatype closeAndReleaseSonatypeStagingRepository', './gradlew :lib:publishAllPublicationsToMavenRepository', './gradlew publishPlugins'],
    keep: ['./gradlew build', './gradlew test', './gradlew publishToMavenLocal', 'gradle check'],
  },
  {
    id: 'semantic-release',
    programs: ['semantic-release'],
    ships: (args) => (dry(args, '--dry-run', '-d') || helpOnly(args) ? null : 'releases: tags, publishes and writes release notes'),
    instead: USER_RELEASES,
    ship: ['semantic-release', 'npx semantic-release', 'npx semantic-release@23 --branches main', 'semantic-release --no-ci'],
    keep: ['semantic-release --dry-run', 'npx semantic-release -d', 'semantic-release --help'],
  },
  {
    id: 'release-it',
    programs: ['release-it'],
    ships: (args) => (dry(args, '--dry-run', '-d') || helpOnly(args) || has(args, '--release-version', '--changelog') ? null : 'releases: bumps, commits, tags, pushes and publishes'),
    instead: USER_RELEASES,
    ship: ['release-it', 'npx release-it minor --ci', 'release-it --increment patch'],
    keep: ['release-it --dry-run', 'release-it --release-version', 'release-it --changelog'],
  },
  {
    id: 'changesets',
    programs: ['changeset', 'changesets'],
    ships: verbs(['publish', 'tag'], 'publishes the changed packages and tags them', []),
    instead: USER_PUBLISHES,
    ship: ['changeset publish', 'npx changeset publish --tag next', 'changeset tag', 'npx @changesets/cli publish'],
    keep: ['changeset', 'changeset add', 'changeset version', 'changeset status --verbose', 'changeset pre enter next'],
  },
  {
    id: 'lerna',
    programs: ['lerna'],
    ships: (args) => {
      const verb = subcommand(args);
      if (verb === 'publish') return helpOnly(args) ? null : 'publishes the packages (and tags and pushes)';
      if (verb === 'version') return has(args, '--no-git-tag-version') || helpOnly(args) ? null : 'bumps, commits, tags and pushes the versions';
      return null;
    },
    instead: USER_RELEASES,
    ship: ['lerna publish', 'lerna publish from-package --yes', 'lerna version patch --yes', 'npx lerna publish'],
    keep: ['lerna run test', 'lerna version --no-git-tag-version --no-push', 'lerna changed', 'lerna list'],
  },
  {
    id: 'np',
    programs: ['np'],
    ships: (args) => (has(args, '--preview') || helpOnly(args) ? null : 'releases the package: bumps, tags, pushes and publishes'),
    instead: USER_RELEASES,
    ship: ['np', 'np patch', 'npx np --no-tests'],
    keep: ['np --preview', 'np --help'],
  },
  {
    id: 'goreleaser',
    programs: ['goreleaser'],
    ships: (args) => {
      const verb = subcommand(args, ['-f', '--config', '--parallelism', '-p', '--timeout', '--skip']);
      if (verb !== undefined && verb !== 'release') return null;
      if (helpOnly(args) || has(args, '--snapshot') || args.some((a) => /^--skip(=|-)publish/.test(a) || /^--skip=.*\bpublish\b/.test(a))) return null;
      return 'releases: builds, uploads artifacts and publishes a release';
    },
    instead: 'nothing: the user releases after the run (`goreleaser release --snapshot` or `goreleaser build --snapshot` builds without publishing)',
    ship: ['goreleaser', 'goreleaser release', 'goreleaser release --clean', 'goreleaser --clean'],
    keep: ['goreleaser check', 'goreleaser build --snapshot', 'goreleaser release --snapshot --clean', 'goreleaser release --skip=publish', 'goreleaser --version'],
  },
  {
    id: 'release-please',
    programs: ['release-please'],
    ships: (args) => {
      const verb = subcommand(args);
      if (verb === undefined || helpOnly(args) || dry(args)) return null;
      return ['release-pr', 'github-release', 'manifest-pr', 'manifest-release', 'bootstrap'].includes(verb) ? `${verb} writes release pull requests or releases on the forge` : null;
    },
    instead: USER_RELEASES,
    ship: ['release-please release-pr --repo-url=o/r', 'npx release-please github-release --token=$T', 'release-please manifest-release'],
    keep: ['release-please release-pr --dry-run --repo-url=o/r', 'release-please --help'],
  },
  {
    id: 'gh-pages',
    programs: ['gh-pages'],
    ships: (args) => (helpOnly(args) ? null : 'pushes a site to the gh-pages branch'),
    instead: USER_DEPLOYS,
    ship: ['gh-pages -d dist', 'npx gh-pages -d build -b gh-pages'],
    keep: ['gh-pages --help'],
  },
  {
    id: 'gh',
    programs: ['gh'],
    ships: (args) => {
      const [group, verb] = positionals(args, ['-R', '--repo', '--hostname']);
      if (group === 'release' && ['create', 'new', 'edit', 'upload', 'delete', 'delete-asset'].includes(verb ?? '')) return `gh release ${verb} changes a release on the forge`;
      if (group === 'pr' && verb === 'merge') return 'merges a pull request on the forge';
      if (group === 'repo' && ['delete', 'archive', 'unarchive', 'edit', 'rename', 'sync'].includes(verb ?? '')) return `gh repo ${verb} changes the repository on the forge`;
      if (group === 'api') return ghApi(args);
      // A workflow run on the forge does whatever the workflow does; one named for deploying, publishing or releasing does that.
      if (group === 'workflow' && verb === 'run' && namedForShipping(positionals(args, ['-R', '--repo', '--ref', '-r', '-f', '-F', '--field', '--raw-field'])[2] ?? '')) return 'starts a workflow on the forge that deploys, publishes or releases';
      return null;
    },
    instead: 'nothing: the user releases and merges on the forge after reviewing the run',
    ship: ['gh workflow run deploy.yml', 'gh workflow run publish-docs.yml -R o/site', 'gh release create v1.2.0 --generate-notes', 'gh release upload v1.2.0 dist/app.tgz', 'gh release delete v1', 'gh release edit v1 --draft=false', 'gh pr merge 12 --squash', 'gh pr merge --auto --merge', 'gh repo delete o/r --yes', 'gh repo archive', 'gh repo edit --default-branch main', 'gh api -X POST repos/o/r/releases -f tag_name=v1', 'gh api repos/o/r/merges -f base=main -f head=dev', "gh api --method PATCH repos/o/r/git/refs/heads/main -f sha=abc", 'gh api repos/o/r/pulls/3/merge -X PUT', "gh api graphql -f query='mutation { mergePullRequest(input: {pullRequestId: \"x\"}) { clientMutationId } }'"],
    keep: ['gh workflow run nightly.yml', 'gh workflow list', 'gh workflow view ci.yml', 'gh run watch 123', 'gh release view v1', 'gh release list', 'gh release download v1', 'gh pr view 12', 'gh pr list', 'gh pr checks', 'gh pr create --fill', 'gh api repos/o/r/releases', 'gh api repos/o/r/pulls/3', "gh api graphql -f query='query { viewer { login } }'", 'gh repo view'],
  },
  {
    id: 'glab',
    programs: ['glab'],
    ships: (args) => {
      const [group, verb] = positionals(args, ['-R', '--repo']);
      if (group === 'release' && ['create', 'upload', 'delete', 'update'].includes(verb ?? '')) return `glab release ${verb} changes a release on the forge`;
      if (group === 'mr' && verb === 'merge') return 'merges a merge request on the forge';
      return null;
    },
    instead: USER_MERGES,
    ship: ['glab release create v1.0.0', 'glab mr merge 5 --yes'],
    keep: ['glab release list', 'glab mr view 5', 'glab mr list'],
  },
  {
    id: 'hub',
    programs: ['hub'],
    ships: (args) => {
      const [group, verb] = positionals(args);
      return group === 'release' && ['create', 'edit', 'delete'].includes(verb ?? '') ? `hub release ${verb} changes a release on the forge` : null;
    },
    instead: USER_RELEASES,
    ship: ['hub release create -m v1 v1.0.0'],
    keep: ['hub release', 'hub release show v1.0.0'],
  },
  {
    id: 'history-rewrite',
    programs: ['git'],
    ships: (args) => {
      // For git: the verb after global options (runtime/hooks/guard/analyze/git.ts handles the rest).
      const rest = [...args];
      while (rest.length > 0 && (rest[0] as string).startsWith('-')) {
        const opt = rest.shift() as string;
        if (['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env'].includes(opt)) rest.shift();
      }
      const verb = rest[0];
      if (verb === 'filter-repo' || verb === 'filter-branch') return helpOnly(rest.slice(1)) || has(rest, '--analyze') ? null : `git ${verb} rewrites history`;
      return null;
    },
    instead: 'nothing: the user rewrites history, if at all, after the run',
    ship: ['git filter-repo --force --path src', 'git filter-branch --tree-filter "rm x" HEAD', 'git -C repo filter-repo --invert-paths --path secrets.txt'],
    keep: ['git filter-repo --analyze', 'git log --oneline'],
  },
  {
    id: 'bfg',
    programs: ['bfg', 'java'],
    ships: (args) => {
      const jar = args.findIndex((a) => a === '-jar');
      const isJava = jar >= 0;
      if (isJava && !/(^|\/)bfg[^/]*\.jar$/i.test(args[jar + 1] ?? '')) return null;
      const rest = isJava ? args.slice(jar + 2) : args;
      if (isJava === false && args.length === 0) return null;
      return helpOnly(rest) ? null : 'rewrites history (BFG Repo-Cleaner)';
    },
    instead: 'nothing: the user rewrites history, if at all, after the run',
    ship: ['bfg --delete-files secrets.txt', 'java -jar bfg.jar --strip-blobs-bigger-than 50M repo.git'],
    keep: ['java -jar app.jar', 'bfg --help'],
  },
  {
    id: 'vercel',
    programs: ['vercel', 'now'],
    ships: (args) => {
      if (helpOnly(args)) return null;
      const verb = subcommand(args, ['--token', '-t', '--scope', '-S', '--cwd', '-A', '--local-config', '-e', '--env', '-b', '--build-env']);
      if (verb === 'promote' || verb === 'rollback' || verb === 'redeploy') return `vercel ${verb} changes a deployment`;
      // With no subcommand vercel deploys (a preview deployment publishes the code too).
      if (verb === undefined || verb === 'deploy' || (verb !== undefined && !VERCEL_COMMANDS.has(verb) && !helpOnly(args))) return has(args, '--prod', '--production') ? 'deploys to production' : 'deploys (a preview deployment publishes the code)';
      return null;
    },
    instead: USER_DEPLOYS,
    ship: ['vercel --prod', 'vercel deploy --prod --prebuilt', 'npx vercel --prod --yes', 'vercel promote https://x.vercel.app', 'vercel', 'vercel deploy', 'vercel ./site'],
    keep: ['vercel dev', 'vercel build', 'vercel env ls', 'vercel env pull .env.local', 'vercel --version', 'vercel login', 'vercel link'],
  },
  {
    id: 'netlify',
    programs: ['netlify', 'ntl'],
    ships: (args) => (subcommand(args) === 'deploy' && has(args, '--prod', '-p', '--prodIfUnlocked', '--prod-if-unlocked') ? 'deploys to production' : null),
    instead: USER_DEPLOYS,
    ship: ['netlify deploy --prod', 'netlify deploy --dir=dist --prod', 'npx netlify-cli deploy --prod'],
    keep: ['netlify deploy --dir=dist', 'netlify dev', 'netlify build'],
  },
  {
    id: 'firebase',
    programs: ['firebase'],
    ships: verbs(['deploy'], 'deploys to Firebase', [], ['--project', '-P', '--token', '--config', '-c']),
    instead: USER_DEPLOYS,
    ship: ['firebase deploy', 'firebase deploy --only hosting', 'npx firebase-tools deploy'],
    keep: ['firebase emulators:start', 'firebase serve', 'firebase hosting:channel:deploy preview'],
  },
  {
    id: 'fly',
    programs: ['fly', 'flyctl'],
    ships: (args) => {
      const [verb, sub] = positionals(args, ['-a', '--app', '-c', '--config', '-i', '--image']);
      if (verb === 'deploy') return 'deploys the app';
      if (verb === 'releases' && sub === 'rollback') return 'rolls back production';
      return null;
    },
    instead: USER_DEPLOYS,
    ship: ['fly deploy', 'flyctl deploy --remote-only', 'fly deploy -a myapp'],
    keep: ['fly status', 'fly logs', 'flyctl launch --no-deploy'],
  },
  {
    id: 'wrangler',
    programs: ['wrangler'],
    ships: (args) => {
      const [verb, sub] = positionals(args, ['-c', '--config', '-e', '--env', '--name', '--project-name', '--branch']);
      if (dry(args)) return null;
      if (verb === 'deploy' || verb === 'publish') return 'deploys the worker';
      if (verb === 'pages' && (sub === 'deploy' || sub === 'publish')) return 'deploys the site';
      if (verb === 'versions' && sub === 'deploy') return 'deploys a version';
      return null;
    },
    instead: USER_DEPLOYS,
    ship: ['wrangler deploy', 'wrangler publish', 'npx wrangler pages deploy dist', 'wrangler versions deploy'],
    keep: ['wrangler dev', 'wrangler deploy --dry-run', 'wrangler whoami'],
  },
  {
    id: 'serverless',
    programs: ['serverless', 'sls', 'cdk'],
    ships: verbs(['deploy'], 'deploys the stack', ['--noop']),
    instead: USER_DEPLOYS,
    ship: ['serverless deploy', 'sls deploy --stage prod', 'npx cdk deploy --all'],
    keep: ['sls package', 'cdk synth', 'cdk diff'],
  },
  {
    id: 'deno-jsr',
    programs: ['deno', 'jsr'],
    ships: verbs(['publish'], 'publishes to JSR', ['--dry-run']),
    instead: USER_PUBLISHES,
    ship: ['deno publish', 'npx jsr publish', 'deno publish --allow-dirty'],
    keep: ['deno publish --dry-run', 'deno test', 'npx jsr add @std/path'],
  },
  {
    id: 'dart',
    programs: ['dart', 'flutter'],
    ships: (args) => {
      const [verb, sub] = positionals(args);
      return verb === 'pub' && sub === 'publish' && !dry(args, '--dry-run', '-n') ? 'publishes to pub.dev' : null;
    },
    instead: USER_PUBLISHES,
    ship: ['dart pub publish', 'flutter pub publish --force'],
    keep: ['dart pub publish --dry-run', 'dart pub get', 'flutter test'],
  },
  {
    id: 'other-registries',
    programs: ['mix', 'pod', 'helm'],
    ships: (args) => {
      const [verb, sub] = positionals(args);
      if (verb === 'hex.publish' && !dry(args)) return 'publishes to Hex';
      if (verb === 'trunk' && sub === 'push') return 'publishes the pod';
      if (verb === 'push' || (verb === 'chart' && sub === 'push')) return 'pushes a chart to a registry';
      return null;
    },
    instead: USER_PUBLISHES,
    ship: ['mix hex.publish', 'pod trunk push Lib.podspec', 'helm push chart-1.0.0.tgz oci://reg/charts'],
    keep: ['mix test', 'mix hex.publish --dry-run', 'pod install', 'helm lint chart'],
  },
  {
    id: 'pkg-pr-new',
    programs: ['pkg-pr-new'],
    ships: verbs(['publish'], 'publishes preview packages to pkg.pr.new', []),
    instead: USER_PUBLISHES,
    ship: ['npx pkg-pr-new publish', "pnpm dlx pkg-pr-new@0.0 publish './packages/*'", 'pnpx pkg-pr-new publish --compact', 'bun pkg-pr-new publish', 'yarn pkg-pr-new publish --yarn'],
    keep: ['pkg-pr-new --help'],
  },
  {
    id: 'babel-release-tool',
    programs: ['release-tool'],
    ships: (args) => {
      const verb = subcommand(args);
      if (dry(args, '--dry', '--dry-run')) return null;
      if (verb === 'publish') return 'publishes the packages';
      if (verb === 'version') return 'versions the packages (it commits and tags)';
      return null;
    },
    instead: USER_RELEASES,
    ship: ['yarn release-tool publish --yes', 'yarn release-tool version --all --yes 1.2.3'],
    keep: ['yarn release-tool --help', 'yarn release-tool version --dry 1.2.3'],
  },
  {
    id: 'site-deployers',
    programs: ['docusaurus', 'mkdocs', 'opennextjs-cloudflare', 'opennextjs-aws', 'contember'],
    ships: (args) => {
      const verb = subcommand(args);
      if (verb === 'deploy' || verb === 'gh-deploy' || verb === 'publish') return `${verb} publishes the site`;
      return null;
    },
    instead: USER_DEPLOYS,
    ship: ['docusaurus deploy', 'mkdocs gh-deploy --force', 'opennextjs-cloudflare deploy', 'contember deploy prod --yes'],
    keep: ['docusaurus build', 'docusaurus start', 'mkdocs build --strict', 'mkdocs serve', 'opennextjs-cloudflare build', 'contember migrations:diff'],
  },
  {
    id: 'version-committers',
    programs: ['standard-version', 'commit-and-tag-version'],
    lock: 'commit',
    ships: (args) => (dry(args) || helpOnly(args) || (has(args, '--skip.commit') && has(args, '--skip.tag')) ? null : 'bumps the version, commits and tags'),
    instead: 'leave the change in the working tree; the user bumps, commits and tags the release after the run',
    ship: ['standard-version', 'npx standard-version --release-as minor', 'commit-and-tag-version'],
    keep: ['standard-version --dry-run', 'npx standard-version --skip.commit --skip.tag'],
  },
];

/**
 * A package run from the registry (`npx X`, `deno run jsr:X`) is code the guard cannot
 * read: when its name says it releases, publishes or deploys (`@scope/release-notes`,
 * `publish-on-tag`), that is what it is taken to do.
 */
export function namedForShipping(spec: string): boolean {
  return /(?:^|[-_/.@:])(?:release|publish|deploy)(?:[-_.@/]|s?$)/i.test(spec);
}

/** npm package names whose program is named otherwise (`npx @changesets/cli publish`). */
export const PACKAGE_PROGRAMS: Record<string, string> = {
  '@changesets/cli': 'changeset',
  '@vscode/vsce': 'vsce',
  vsce: 'vsce',
  'netlify-cli': 'netlify',
  'firebase-tools': 'firebase',
  '@lerna/cli': 'lerna',
  'lerna-lite': 'lerna',
  '@lerna-lite/cli': 'lerna',
  'aws-cdk': 'cdk',
  '@google/release-please': 'release-please',
  'release-please': 'release-please',
  'semantic-release': 'semantic-release',
  'jsr': 'jsr',
};

const BY_PROGRAM = new Map<string, ShipEntry[]>();
for (const entry of SHIP_CATALOG) for (const p of entry.programs) BY_PROGRAM.set(p, [...(BY_PROGRAM.get(p) ?? []), entry]);

/** The program name as the catalog knows it: `./gradlew` → gradlew, `twine.exe` → twine. */
export function catalogName(program: string): string {
  return (program.split(/[\\/]/).pop() ?? '').toLowerCase().replace(/\.(exe|cmd|bat|ps1|sh|js|mjs|cjs|ts|py)$/, '');
}

/** Is this a program the catalog judges? */
export function inCatalog(program: string): boolean {
  return BY_PROGRAM.has(catalogName(program));
}

/** What `program args…` ships, with its entry; null when it ships nothing. */
export function shipOf(program: string, args: readonly string[]): { entry: ShipEntry; what: string } | null {
  for (const entry of BY_PROGRAM.get(catalogName(program)) ?? []) {
    const what = entry.ships(args);
    if (what !== null) return { entry, what };
  }
  return null;
}
