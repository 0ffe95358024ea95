/*
 * command.h -- one aescrypt command line, run: parsed, checked and
 * dispatched to its mode.
 *
 * main() does what belongs to the process once (no core dumps, the
 * malloc arena, the locale) and calls command_main.  It can also be
 * called several times in one process, one command line after another,
 * which is how tests/inproc/ runs the tamper and salvage campaigns
 * without a process for each case: the parser starts afresh each time,
 * and the only state kept between calls is the signal flags.
 */
#ifndef AE_CLI_COMMAND_H
#define AE_CLI_COMMAND_H

/* Run argv (argv[0] is the program's name) as the aescrypt command
 * does; returns its exit status (exitcode.h), every message said. */
int command_main(int argc, char **argv);

#endif
