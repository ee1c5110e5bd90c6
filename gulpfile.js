// Copies the icons next to the compiled nodes and credentials so the `file:` icon paths
// (e.g. file:../../icons/documentExtraction.svg from dist/nodes/DocumentExtraction/) resolve in dist/.
const { src, dest } = require('gulp');

function buildIcons() {
	return src(['icons/**/*.svg', 'nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.' }).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
