from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cadence", "0017_session_change_notices"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="notification",
            index=models.Index(
                condition=models.Q(("read_at__isnull", True), ("recipient__isnull", False)),
                fields=["recipient"],
                name="notification_unread",
            ),
        ),
    ]
