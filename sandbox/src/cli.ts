import { startSandbox } from './index';
import { CLI_HELP, parseCliArgs } from './cliOptions';
import { startupLines } from './startupText';

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
	const demo = sandbox.accounts.get(sandbox.demoAccountId)!;
	const lines = startupLines({
		host: command.options.host ?? '127.0.0.1',
		port: sandbox.port,
		baseUrl: sandbox.baseUrl,
		demoKey: sandbox.demoKey,
		plan: demo.plan,
		pagesAvailable: demo.pagesAvailable,
		monthlyPages: demo.monthlyPages,
		stateFile: command.options.stateFile,
	});
	console.log(lines.join('\n'));

	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		sandbox.stop().then(
			() => console.log(command.options.stateFile ? `\nSandbox stopped; its state is in ${command.options.stateFile}.` : '\nSandbox stopped.'),
			(error: unknown) => {
				console.error(error instanceof Error ? error.message : error);
				process.exitCode = 1;
			},
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

// The message alone (e.g. a damaged state file, a port in use): a stack trace would only hide it.
main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
