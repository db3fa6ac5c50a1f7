"""Seed the question bank (editable afterwards by programme admins)."""

from django.db import migrations

PROMPTS = [
    # (step, kind or "" for all, text)
    ("goal", "one_on_one", "What's the one thing you most want to get better at this quarter?"),
    ("goal", "one_on_one", "If we met again in three months, what would you want to be different?"),
    ("goal", "one_on_one", "Why does that matter to you right now?"),
    ("reality", "one_on_one", "Let's pull up the call. Where do you think it went sideways?"),
    ("reality", "one_on_one", "Where were you happy with it?"),
    ("reality", "one_on_one", "What did the customer say or do that told you that?"),
    ("reality", "", "What have you already tried, and what happened?"),
    ("options", "one_on_one", "What would you do differently if you ran that call again tomorrow?"),
    ("options", "", "What else could you try? And what else?"),
    ("options", "", "Can I show you a different way to handle that? Try it on me now and tell me how it felt."),
    ("will", "one_on_one", "Which one will you actually try on your next two calls?"),
    ("will", "", "How will I know you did it?"),
    ("will", "", "What might get in the way, and what will you do then?"),
    ("general", "team_call_review", "Presenter: what's one thing you'd have done differently?"),
    ("general", "team_call_review", "Peers: what did you notice? Describe what happened, not what you think it meant."),
    ("general", "team_call_review", "Which scorecard criterion did this call show best, and which least?"),
    ("general", "role_play", "Let's run it again. This time, try the behaviour from the focus area."),
    ("general", "role_play", "How did that feel compared with the first run?"),
    ("general", "role_play", "What will you say in the first ten seconds next time?"),
    ("general", "manager_review", "Which of your 1:1s last month moved someone forward? What did you do in it?"),
    ("general", "manager_review", "Where did your cadence break, and what got in the way?"),
    ("general", "manager_review", "Are you asking before telling? Give me an example from this week."),
    ("general", "peer", "What would a small experiment look like this week?"),
    ("general", "peer", "What evidence would change your mind?"),
    ("general", "", "What did you learn? What would you do differently next time?"),
]


def seed(apps, schema_editor):
    Prompt = apps.get_model("coaching", "Prompt")
    if Prompt.objects.exists():
        return
    Prompt.objects.bulk_create(
        Prompt(step=step, kind=kind, text=text, position=i)
        for i, (step, kind, text) in enumerate(PROMPTS)
    )


class Migration(migrations.Migration):
    dependencies = [("coaching", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
