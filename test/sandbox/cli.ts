import { startSandbox } from './index';
import { CLI_HELP, parseCliArgs } from './cliOptions';

/** `npm run sandbox`: the local service for users, the demo and out-of-process tests. */
async function main(): Promise<void> {
	let command;
	try {
		command = parseCliArgs(process.argv.slice(2));
	} catch (error) {
		console.error(`${error instanceof Error ? error.message : String(error)}\n\n${CLI_HELP}`);
		process.exitCode = 2;
		return;
	}
	if (command.help) {
		console.log(CLI_HELP);
		return;
	}
	const sandbox = await startSandbox(command.options);
	const plan = sandbox.accounts.get(sandbox.demoAccountId)!;
	console.log(`Document-extraction sandbox listening on ${sandbox.baseUrl}`);
	console.log(`  Base URL     : ${sandbox.baseUrl}`);
	console.log(`  Demo API key : ${sandbox.demoKey}  (${plan.plan} plan, ${plan.pagesAvailable} of ${plan.monthlyPages} pages left)`);
	console.log(`  Try it       : curl -H "X-API-Key: ${sandbox.demoKey}" ${sandbox.baseUrl}/api/v1/scanners`);
	console.log('  In n8n, put the Base URL and the demo key into the Document Extraction credential. Ctrl-C stops.');

	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		sandbox.stop().then(
			() => console.log('\nSandbox stopped.'),
			(error: unknown) => {
				console.error(error);
				process.exitCode = 1;
			},
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
