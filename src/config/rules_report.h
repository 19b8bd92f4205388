/* The rules of the options that choose what a test reports and how its lines
 * go out (--plot, --analyze with --mtu and --framing, --compression,
 * --json-stream, --logfile, --title): checks and settling steps that
 * rules.c's check_and_settle() calls in its order, each as rules.c's own. */
#ifndef TTCP_CONFIG_RULES_REPORT_H
#define TTCP_CONFIG_RULES_REPORT_H

#include <stddef.h>

#include "config/options.h"

int ttcp_rules_check_plot(const struct ttcp_options *o, char *why, size_t why_len);
void ttcp_rules_settle_plot_interval(struct ttcp_options *o);
int ttcp_rules_check_analysis(const struct ttcp_options *o, char *why, size_t why_len);
void ttcp_rules_settle_framing(struct ttcp_options *o);
int ttcp_rules_check_output(const struct ttcp_options *o, char *why, size_t why_len);
void ttcp_rules_settle_output(struct ttcp_options *o);
int ttcp_rules_check_compression(const struct ttcp_options *o, char *why, size_t why_len);
/* -S --web [ADDRESS:]PORT: its address and port into web_host and web_port
 * (rules_web.c); 0, or -1 with a reason. */
int ttcp_rules_check_web(struct ttcp_options *o, char *why, size_t why_len);
int ttcp_rules_check_latency(const struct ttcp_options *o, char *why, size_t why_len);
void ttcp_rules_settle_latency(struct ttcp_options *o);

#endif
