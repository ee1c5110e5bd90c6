// Copies the icons and the nodes' codex files (*.node.json) next to the compiled code, so the `file:` icon paths
// (e.g. file:../../icons/documentExtraction.svg from dist/nodes/DocumentExtraction/) resolve in dist/.
const { src, dest } = require('gulp');

function buildIcons() {
	return src(['icons/**/*.svg', 'nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], { base: '.' }).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
