// .gitignore templates offered by `gitignores` on repository creation and `GET /gitignore/templates`.
// Short, conventional patterns per ecosystem, editor and operating system.
const lines = (...l: string[]) => `${l.join('\n')}\n`;

export const GITIGNORES: Record<string, string> = {
  C: lines(
    '# Object files', '*.o', '*.ko', '*.obj', '*.elf', '',
    '# Precompiled headers', '*.gch', '*.pch', '',
    '# Libraries', '*.lib', '*.a', '*.la', '*.lo', '',
    '# Shared objects', '*.dll', '*.so', '*.so.*', '*.dylib', '',
    '# Executables', '*.exe', '*.out', '*.app', '*.i*86', '*.x86_64', '*.hex', '',
    '# Debug files', '*.dSYM/', '*.su', '*.idb', '*.pdb', '',
    '# Dependency files', '*.d',
  ),
  'C++': lines(
    '# Prerequisites', '*.d', '',
    '# Compiled object files', '*.slo', '*.lo', '*.o', '*.obj', '',
    '# Precompiled headers', '*.gch', '*.pch', '',
    '# Compiled dynamic libraries', '*.so', '*.dylib', '*.dll', '',
    '# Compiled static libraries', '*.lai', '*.la', '*.a', '*.lib', '',
    '# Executables', '*.exe', '*.out', '*.app', '',
    '# Build directories', 'build/', 'cmake-build-*/',
  ),
  Go: lines(
    '# Binaries', '*.exe', '*.exe~', '*.dll', '*.so', '*.dylib', '',
    '# Test binaries and coverage output', '*.test', '*.out', 'coverage.*', '',
    '# Workspace file', 'go.work', 'go.work.sum', '',
    '# Local environment', '.env',
  ),
  Java: lines(
    '# Compiled classes', '*.class', '',
    '# Logs', '*.log', '',
    '# Packages', '*.jar', '*.war', '*.nar', '*.ear', '*.zip', '*.tar.gz', '*.rar', '',
    '# JVM crash logs', 'hs_err_pid*', 'replay_pid*', '',
    '# Build output', 'target/', 'build/', '.gradle/', 'out/',
  ),
  JetBrains: lines(
    '# IntelliJ IDEA, GoLand, PyCharm, WebStorm and friends', '.idea/', '*.iml', '*.ipr', '*.iws', 'out/', '',
    '# Plugin-generated files', '.idea_modules/', 'atlassian-ide-plugin.xml', 'com_crashlytics_export_strings.xml',
    'crashlytics.properties', 'crashlytics-build.properties', 'fabric.properties',
  ),
  Linux: lines(
    '*~', '',
    '# Temporary files left open by editors', '.fuse_hidden*', '',
    '# Directory preferences of KDE', '.directory', '',
    '# Trash folders on removable media', '.Trash-*', '',
    '# Files left by NFS when a file is removed while open', '.nfs*',
  ),
  Node: lines(
    '# Logs', 'logs', '*.log', 'npm-debug.log*', 'yarn-debug.log*', 'yarn-error.log*', 'pnpm-debug.log*', '',
    '# Runtime data', 'pids', '*.pid', '*.seed', '*.pid.lock', '',
    '# Coverage', 'coverage/', '.nyc_output/', '',
    '# Dependencies', 'node_modules/', 'jspm_packages/', '',
    '# Caches', '.npm', '.eslintcache', '.cache/', '*.tsbuildinfo', '',
    '# Build output', 'dist/', 'build/', '.next/', '.nuxt/', '',
    '# Environment', '.env', '.env.*', '!.env.example',
  ),
  Python: lines(
    '# Byte-compiled files', '__pycache__/', '*.py[cod]', '*$py.class', '',
    '# C extensions', '*.so', '',
    '# Packaging', 'build/', 'dist/', 'eggs/', '.eggs/', 'wheels/', '*.egg-info/', '*.egg', 'MANIFEST', '',
    '# Test and coverage reports', '.pytest_cache/', '.tox/', '.nox/', '.coverage', '.coverage.*', 'htmlcov/', '',
    '# Type checkers and linters', '.mypy_cache/', '.ruff_cache/', '.pytype/', '',
    '# Notebooks', '.ipynb_checkpoints', '',
    '# Environments', '.env', '.venv', 'env/', 'venv/', 'ENV/',
  ),
  Rust: lines(
    '# Build output of Cargo', 'debug/', 'target/', '',
    '# Backup files of rustfmt', '**/*.rs.bk', '',
    '# Debug information of MSVC', '*.pdb',
  ),
  VisualStudioCode: lines(
    '.vscode/*', '!.vscode/settings.json', '!.vscode/tasks.json', '!.vscode/launch.json', '!.vscode/extensions.json',
    '!.vscode/*.code-snippets', '', '# Local history', '.history/', '', '# Built extensions', '*.vsix',
  ),
  Windows: lines(
    '# Thumbnail caches', 'Thumbs.db', 'Thumbs.db:encryptable', 'ehthumbs.db', 'ehthumbs_vista.db', '',
    '# Dump files', '*.stackdump', '',
    '# Folder configuration', '[Dd]esktop.ini', '',
    '# Recycle Bin', '$RECYCLE.BIN/', '',
    '# Installer files', '*.cab', '*.msi', '*.msix', '*.msm', '*.msp', '',
    '# Shortcuts', '*.lnk',
  ),
  macOS: lines(
    '# General', '.DS_Store', '.AppleDouble', '.LSOverride', '',
    '# Icon must end with two \\r', 'Icon\r\r', '',
    '# Thumbnails', '._*', '',
    '# Files that might appear in the root of a volume', '.DocumentRevisions-V100', '.fseventsd', '.Spotlight-V100',
    '.TemporaryItems', '.Trashes', '.VolumeIcon.icns', '.com.apple.timemachine.donotpresent', '',
    '# Directories potentially created on remote AFP share', '.AppleDB', '.AppleDesktop', 'Network Trash Folder',
    'Temporary Items', '.apdisk',
  ),
};

export const GITIGNORE_NAMES = Object.keys(GITIGNORES).sort();

export const gitignore = (name: string): string | undefined => (Object.hasOwn(GITIGNORES, name) ? GITIGNORES[name] : undefined);
